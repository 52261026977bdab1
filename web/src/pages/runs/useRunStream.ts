// Follows a run's server-sent events (GET /api/runs/:id/events). The
// browser's EventSource resumes by itself with Last-Event-ID after a network
// blip; the hub ends the stream after run.finished, and the page closes it
// then (and on unmount) so it does not reconnect.
import { useEffect, useRef, useState } from "react";
import { RUN_EVENT_KINDS, runEventsUrl, type RunEvent } from "../../api/runs";

export type StreamState = "connecting" | "live" | "reconnecting" | "closed";

const CLOSED = 2; // EventSource.CLOSED

function parseEvent(data: unknown): RunEvent | null {
  if (typeof data !== "string") return null;
  try {
    const v: unknown = JSON.parse(data);
    if (typeof v !== "object" || v === null) return null;
    const e = v as RunEvent;
    return typeof e.seq === "number" && typeof e.kind === "string" ? e : null;
  } catch {
    return null;
  }
}

/**
 * useRunStream calls onEvent for every event of run `id` while enabled.
 * When the connection drops, isOver says whether the run has finished: a
 * finished run's stream that drops twice without an event in between has
 * nothing more to send, and is closed instead of reconnecting forever.
 */
export function useRunStream(id: string, enabled: boolean, onEvent: (e: RunEvent) => void, isOver: () => Promise<boolean>): StreamState {
  const [state, setState] = useState<StreamState>("connecting");
  const handlers = useRef({ onEvent, isOver });
  useEffect(() => {
    handlers.current = { onEvent, isOver };
  });

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const es = new EventSource(runEventsUrl(id));
    let done = false;
    let drops = 0; // connection losses since the last event
    const close = () => {
      done = true;
      es.close();
      setState("closed");
    };
    const listener = (msg: Event) => {
      const e = parseEvent((msg as MessageEvent).data);
      if (!e) return;
      drops = 0;
      setState("live"); // also when a proxy held the headers back until the first event
      handlers.current.onEvent(e);
      if (e.kind === "run.finished") close();
    };
    for (const kind of RUN_EVENT_KINDS) es.addEventListener(kind, listener);
    es.onopen = () => {
      if (!done) setState("live");
    };
    es.onerror = () => {
      if (done) return;
      if (es.readyState === CLOSED) {
        setState("closed");
        return;
      }
      setState("reconnecting");
      drops += 1;
      const tries = drops;
      handlers.current.isOver().then(
        (over) => {
          if (over && tries >= 2 && !done) close();
        },
        () => undefined,
      );
    };
    return () => {
      done = true;
      for (const kind of RUN_EVENT_KINDS) es.removeEventListener(kind, listener);
      es.close();
    };
  }, [id, enabled]);

  return state;
}
