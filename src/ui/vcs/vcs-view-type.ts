/** The version-control panel's view type, apart from the view itself, which is required only when the panel opens. */
export const VCS_VIEW_TYPE = "runnable-blocks-vcs";
