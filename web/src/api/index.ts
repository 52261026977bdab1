export * from "./client";
export * from "./types";
export * from "./tests";
