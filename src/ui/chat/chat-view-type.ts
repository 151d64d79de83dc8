/** The chat panel's view type, apart from the view itself, which is required only when the panel opens. */
export const CHAT_VIEW_TYPE = "runnable-blocks-chat";
