/** The block language: pure functions, no I/O, no `obsidian` import. */
export * from "./lines";
export * from "./methods";
export * from "./problems";
export * from "./fences";
export * from "./info";
export * from "./kind";
export * from "./kinds";
export * from "./http";
export * from "./references";
export * from "./builtins";
export * from "./note";
export * from "./edit";
export * from "./form";
export * from "./templates";
export * from "./completion";
export * from "./search-index";
