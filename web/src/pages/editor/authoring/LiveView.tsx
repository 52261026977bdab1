// The live view of an authoring session: the agent's page as a picture
// the hub streams a few times a second while it is shown, and the clicks,
// scrolls and keys given to the picture sent to the page as real input.
// It is how a headless agent (no window to click in) is recorded and
// picked, or an agent on another computer.
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type WheelEvent } from "react";
import { sendViewInput, sessionViewUrl, type ViewFrame, type ViewInput } from "../../../api/authoringApi";
import { problemText } from "./AuthoringContext";
import { LiveViewDialog } from "./LiveViewDialog";
import { LiveViewTabs } from "./LiveViewTabs";
import { usePressGesture } from "./liveViewGesture";
import { LiveViewFileChooser } from "./LiveViewFileChooser";

/** Keys sent by name (protocol.InputKeys); printable ones go as text. */
const NAMED_KEYS = new Set([
  "Enter",
  "Tab",
  "Escape",
  "Backspace",
  "Delete",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "Insert",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);

/** viewKey turns a key event into the input to send, or null to leave it to the browser. */
export function viewKey(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "altKey" | "metaKey" | "shiftKey">): ViewInput | null {
  const modifiers = [e.altKey && "Alt", e.ctrlKey && "Control", e.metaKey && "Meta", e.shiftKey && "Shift"].filter((m): m is string => !!m);
  const combo = e.ctrlKey || e.altKey || e.metaKey;
  if (NAMED_KEYS.has(e.key)) return { kind: "key", key: e.key, modifiers };
  if (e.key === " " && !combo) return { kind: "text", text: " " };
  if (e.key.length === 1 && !combo) return { kind: "text", text: e.key };
  if (/^[a-zA-Z0-9]$/.test(e.key) && combo) return { kind: "key", key: e.key.toLowerCase(), modifiers };
  return null;
}

/** framePoint maps a mouse position on the shown picture to the frame's pixels. */
export function framePoint(frame: ViewFrame, box: { left: number; top: number; width: number; height: number }, x: number, y: number) {
  const clamp = (v: number, hi: number) => Math.min(Math.max(v, 0), hi);
  return {
    x: Math.round(clamp(((x - box.left) * frame.width) / (box.width || 1), frame.width)),
    y: Math.round(clamp(((y - box.top) * frame.height) / (box.height || 1), frame.height)),
  };
}

export function LiveView({ sessionId, label }: { sessionId: string; label: string }) {
  const [frame, setFrame] = useState<ViewFrame | null>(null);
  const [ended, setEnded] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The frame a dialog was answered on: its dialog stays hidden until a newer frame comes.
  const [answeredAt, setAnsweredAt] = useState(0);
  // Likewise the frame a file choice was answered on.
  const [chosenAt, setChosenAt] = useState(0);
  // Inputs go one after another, so typed text and the Enter after it arrive in order.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const lastMove = useRef(0);
  const wheel = useRef<{ dx: number; dy: number; x: number; y: number; timer: number | null }>({ dx: 0, dy: 0, x: 0, y: 0, timer: null });
  // A press moved before its release is a drag (sent whole), not a click.
  const press = usePressGesture((input) => send(input));

  useEffect(() => {
    setFrame(null);
    setEnded(false);
    setAnsweredAt(0);
    setChosenAt(0);
    const es = new EventSource(sessionViewUrl(sessionId));
    es.addEventListener("frame", (e) => setFrame(JSON.parse((e as MessageEvent).data) as ViewFrame));
    es.addEventListener("end", () => {
      setEnded(true);
      es.close();
    });
    return () => es.close();
  }, [sessionId]);

  const send = (input: ViewInput) => {
    queue.current = queue.current
      .then(() => sendViewInput(sessionId, input))
      .then(() => setProblem(null))
      .catch((err: unknown) => setProblem(problemText(err)));
  };
  const at = (e: MouseEvent<HTMLElement> | WheelEvent<HTMLElement>) =>
    frame ? framePoint(frame, e.currentTarget.getBoundingClientRect(), e.clientX, e.clientY) : null;

  if (ended) return null;
  if (!frame) {
    return (
      <p className="live-view-wait muted" role="status">
        Waiting for the agent's picture of the page… A headless agent (as <code>make agent</code> starts it) shows no window: the page
        appears here and takes your clicks and keys.
      </p>
    );
  }
  const dialog = frame.seq > answeredAt ? frame.dialog : undefined;
  const chooser = frame.seq > chosenAt && !dialog ? frame.fileChooser : undefined;
  return (
    <figure className="live-view">
      {frame.tabs && frame.tabs.length > 1 && (
        <LiveViewTabs
          tabs={frame.tabs}
          onSelect={(index) => send({ kind: "tab", index })}
          onClose={(index) => send({ kind: "closeTab", index })}
        />
      )}
      <div className="live-view-page">
        <img
          src={`data:image/jpeg;base64,${frame.data}`}
          alt={`${label}, live: click, scroll and type here to use the page`}
          width={frame.width}
          height={frame.height}
          tabIndex={0}
          draggable={false}
          // Focused for the keys to follow, without scrolling: the click lands where it was pressed.
          onMouseDown={(e) => {
            e.currentTarget.focus({ preventScroll: true });
            const img = e.currentTarget;
            const p = at(e);
            if (p && e.button === 0) press.start(p, (x, y) => framePoint(frame, img.getBoundingClientRect(), x, y));
          }}
          onClick={(e) => {
            if (press.wasDrag()) return;
            const p = at(e);
            if (p) send({ kind: "click", ...p, clicks: Math.min(Math.max(e.detail, 1), 3) });
          }}
          onMouseMove={(e) => {
            // Hovering shows menus and the picker's highlight; a few moves a second are plenty.
            if (press.pressing() || Date.now() - lastMove.current < 250) return;
            lastMove.current = Date.now();
            const p = at(e);
            if (p) send({ kind: "move", ...p });
          }}
          onWheel={(e) => {
            const p = at(e);
            if (!p) return;
            const w = wheel.current;
            w.dx += e.deltaX;
            w.dy += e.deltaY;
            w.x = p.x;
            w.y = p.y;
            if (w.timer === null) {
              w.timer = window.setTimeout(() => {
                send({ kind: "wheel", x: w.x, y: w.y, deltaX: w.dx, deltaY: w.dy });
                w.dx = w.dy = 0;
                w.timer = null;
              }, 150);
            }
          }}
          onKeyDown={(e) => {
            const input = viewKey(e);
            if (!input) return;
            e.preventDefault();
            send(input);
          }}
        />
        {dialog && (
          <LiveViewDialog
            // One dialog, however many frames show it: what is typed stays.
            key={`${answeredAt}|${dialog.type}|${dialog.message}`}
            dialog={dialog}
            onAnswer={(accept, text) => {
              setAnsweredAt(frame.seq);
              send({ kind: "dialog", accept, text });
            }}
          />
        )}
        {chooser && (
          <LiveViewFileChooser
            // One choice, however many frames show it: what is ticked stays.
            key={chosenAt}
            chooser={chooser}
            onAnswer={(files) => {
              setChosenAt(frame.seq);
              send({ kind: "files", files });
            }}
          />
        )}
      </div>
      <figcaption className="hint">
        The agent's page, live. Click in it, drag in it, scroll it, and type while it has the focus: everything goes to the page as real
        input.
      </figcaption>
      {problem && (
        <p className="error-box" role="alert">
          The page did not take that: {problem}
        </p>
      )}
    </figure>
  );
}
