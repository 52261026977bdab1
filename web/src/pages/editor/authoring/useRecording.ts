// A recording from the editor: started through the hub on the caller's
// agent, its captured steps followed live over Server-Sent Events (the
// browser resumes a dropped stream with Last-Event-ID), and stopped for its
// final steps. The stream ends after the final status; leaving the editor
// stops a recording still running.
import { useCallback, useEffect, useRef, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import {
  recordingEventsUrl,
  startRecording,
  stopRecording,
  type FileOfferedEvent,
  type FileSettledEvent,
  type RecordStart,
  type Recording,
  type StatusEvent,
  type StepEvent,
} from "../../../api/authoringApi";
import { applyStepEvent, type LiveStep } from "./recordModel";

const FINAL = new Set(["stopped", "error"]);

/** running is true while a recording may still capture steps. */
export function running(rec: Recording | null): boolean {
  return rec !== null && !FINAL.has(rec.status);
}

function parse<T>(data: unknown): T | null {
  try {
    return JSON.parse(String(data)) as T;
  } catch {
    return null;
  }
}

export function useRecording(projectId: string) {
  const [rec, setRec] = useState<Recording | null>(null);
  const [live, setLive] = useState<LiveStep[]>([]);
  const [streamLost, setStreamLost] = useState(false);
  // A file the page chose, waiting for the person's answer (FileOfferPrompt).
  const [offer, setOffer] = useState<FileOfferedEvent | null>(null);
  const source = useRef<EventSource | null>(null);

  const close = useCallback(() => {
    source.current?.close();
    source.current = null;
  }, []);
  // Leaving the editor stops a recording still running: nobody would see its steps.
  const runningId = useRef<string | null>(null);
  runningId.current = rec && running(rec) ? rec.id : null;
  useEffect(
    () => () => {
      close();
      if (runningId.current) stopRecording(runningId.current).catch(() => {});
    },
    [close],
  );

  const listen = useCallback(
    (id: string) => {
      close();
      const es = new EventSource(recordingEventsUrl(id));
      source.current = es;
      es.addEventListener("step", (e) => {
        const ev = parse<StepEvent>((e as MessageEvent).data);
        if (ev) setLive((l) => applyStepEvent(l, ev));
        setStreamLost(false);
      });
      es.addEventListener("file.offered", (e) => {
        const ev = parse<FileOfferedEvent>((e as MessageEvent).data);
        if (ev) setOffer(ev);
      });
      es.addEventListener("file.settled", (e) => {
        const ev = parse<FileSettledEvent>((e as MessageEvent).data);
        if (ev) setOffer((o) => (o && o.offerId === ev.offerId ? null : o));
      });
      es.addEventListener("status", (e) => {
        const ev = parse<StatusEvent>((e as MessageEvent).data);
        if (!ev) return;
        setStreamLost(false);
        setRec((r) => (r && r.id === id ? { ...r, status: ev.status, url: ev.url || r.url, error: ev.error ?? null } : r));
        if (FINAL.has(ev.status)) {
          setOffer(null);
          close();
        }
      });
      // The browser reconnects by itself; a closed stream (the hub refused it) is said.
      es.onerror = () => setStreamLost(es.readyState === EventSource.CLOSED || es.readyState === EventSource.CONNECTING);
    },
    [close],
  );

  const start = useMutation({
    mutationFn: (body: RecordStart) => startRecording(projectId, body),
    onMutate: () => {
      close();
      setRec(null);
      setLive([]);
      setOffer(null);
      setStreamLost(false);
    },
    onSuccess: (r) => {
      setRec(r);
      if (running(r)) listen(r.id);
    },
  });

  const stop = useMutation({
    mutationFn: (id: string) => stopRecording(id),
    onSuccess: (r) => {
      close();
      setOffer(null);
      setRec(r);
    },
  });

  /** forget drops a finished recording, so the panel offers a new start. */
  const forget = useCallback(() => {
    close();
    setRec(null);
    setLive([]);
    setOffer(null);
    start.reset();
    stop.reset();
  }, [close, start, stop]);

  return { rec, live, streamLost, offer, start, stop, forget };
}

export type RecordingState = ReturnType<typeof useRecording>;
