export * from "./client";
export * from "./types";
export * from "./tests";
export * from "./testsApi";
export * from "./runs";
export * from "./admin";
export * from "./editorApi";
export * from "./authoringApi";
