// A stand-in for the browser's EventSource, which jsdom lacks: the pages
// under test open it as they would the hub's streams, and a test opens it,
// pushes named events through it and sees whether the page closed it.
import { act } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import type { RunEvent } from "../api/runs";

type Listener = (e: MessageEvent) => void;

export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every source the page opened in this test, oldest first. */
  static all: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  private listeners = new Map<string, Set<Listener>>();

  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(fn);
  }
  removeEventListener(type: string, fn: Listener) {
    this.listeners.get(type)?.delete(fn);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  /** open says the connection is up, as the browser does once the hub answers. */
  open() {
    act(() => {
      this.readyState = FakeEventSource.OPEN;
      this.onopen?.(new Event("open"));
    });
  }
  /** emit delivers an event named type with data as its JSON; a closed source delivers nothing. */
  emit(type: string, data: unknown, lastEventId = "") {
    act(() => {
      if (this.readyState === FakeEventSource.CLOSED) return;
      for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
    });
  }
  /** emitRun delivers a run event as the hub's run stream does: named by its kind, its seq as the id. */
  emitRun(e: RunEvent) {
    this.emit(e.kind, e, String(e.seq));
  }
  /** latest is the source the page opened last. */
  static latest(): FakeEventSource {
    const es = FakeEventSource.all.at(-1);
    if (!es) throw new Error("no EventSource was opened");
    return es;
  }
}

/** installFakeEventSource puts FakeEventSource in the place of EventSource for every test of the file. */
export function installFakeEventSource(): void {
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal("EventSource", FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());
}
