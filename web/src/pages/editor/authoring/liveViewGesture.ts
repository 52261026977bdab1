// A press on the live view's picture is a click or a drag: the agent's page
// cannot hold a button pressed across inputs sent one by one, so the whole
// drag goes as one input once the button is released (kind drag, the
// agent moving from one point to the other as a hand would).
import { useRef } from "react";
import type { ViewInput } from "../../../api/authoringApi";

/** How far, in frame pixels, the mouse moves while pressed before the press is a drag, not a click. */
export const DRAG_THRESHOLD = 5;

type Point = { x: number; y: number };

/** pressGesture is what a press at start released at end sends: a drag when it moved more than DRAG_THRESHOLD, else null (the click follows as a click). */
export function pressGesture(start: Point, end: Point): ViewInput | null {
  if (Math.hypot(end.x - start.x, end.y - start.y) <= DRAG_THRESHOLD) return null;
  return { kind: "drag", x: start.x, y: start.y, toX: end.x, toY: end.y };
}

/**
 * usePressGesture follows a left press on the picture to its release (on the
 * picture or off it: the point is then at its edge) and sends a drag when it
 * moved; the click event the browser fires after such a release is then not
 * a click.
 */
export function usePressGesture(send: (input: ViewInput) => void) {
  const pressed = useRef(false);
  const dragged = useRef(false);
  return {
    /** The left button went down at p (frame pixels); at maps where it is released to frame pixels. */
    start(p: Point, at: (clientX: number, clientY: number) => Point) {
      pressed.current = true;
      dragged.current = false;
      const up = (e: globalThis.MouseEvent) => {
        window.removeEventListener("mouseup", up);
        pressed.current = false;
        const drag = pressGesture(p, at(e.clientX, e.clientY));
        if (drag) {
          dragged.current = true;
          send(drag);
        }
      };
      window.addEventListener("mouseup", up);
    },
    /** Whether the button is held: the moves are the drag's, not hovering. */
    pressing: () => pressed.current,
    /** Whether the click being handled ends a drag (sent already). */
    wasDrag: () => dragged.current,
  };
}
