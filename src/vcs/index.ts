/** The version-control core (docs/vcs.md): git through an execFile port, no obsidian. */
export * from "./branches";
export * from "./exec";
export * from "./failures";
export * from "./history";
export * from "./integrate";
export * from "./log";
export * from "./message";
export * from "./ports";
export * from "./process-probe";
export * from "./repository";
export * from "./safety";
export * from "./safety-points";
export * from "./status";
export * from "./sync";
export * from "./node-fs";
export * from "./session";
export * from "./auto-sync";
