import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// CI runs on two cores, often beside the Go tests' browsers: a screen that
// renders in 50 ms alone may take seconds there. findBy and waitFor wait up
// to 5 s (not 1 s) and a test up to 20 s (vite.config.ts), so a loaded
// machine is slower, never red; a test that really waits for nothing still
// fails, only later.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());
