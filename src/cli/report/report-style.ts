/** The report's CSS: system fonts and colours only, light and dark. */
export const REPORT_STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --dim: #6e7781; --line: #d0d7de; --bar: #0969da; }
@media (prefers-color-scheme: dark) { :root { --ok: #3fb950; --bad: #f85149; --warn: #d29922; --dim: #8b949e; --line: #30363d; --bar: #58a6ff; } }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 16px; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 24px 0 8px; }
.summary { display: flex; flex-wrap: wrap; gap: 8px 16px; }
.count { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; }
.passed { color: var(--ok); } .failed, .error, .invalid { color: var(--bad); } .cancelled, .skipped, .not-run { color: var(--warn); }
.stopped { color: var(--warn); font-weight: 600; }
.waterfall { border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
.wf-row { display: grid; grid-template-columns: minmax(120px, 30%) 1fr; gap: 8px; align-items: center; height: 16px; }
.wf-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 12px; color: var(--dim); }
.wf-track { position: relative; height: 10px; }
.wf-axis { border-bottom: 1px solid var(--line); margin-bottom: 4px; }
.tick { position: absolute; top: -2px; font-size: 11px; transform: translateX(-50%); white-space: nowrap; }
.tick:first-child { transform: none; } .tick:last-child { transform: translateX(-100%); }
.bar { position: absolute; top: 0; height: 10px; min-width: 2px; background: var(--bar); border-radius: 2px; }
.bar.failed, .bar.error, .bar.invalid { background: var(--bad); } .bar.cancelled, .bar.skipped, .bar.not-run { background: var(--warn); opacity: .6; }
details.note { border-top: 1px solid var(--line); padding: 4px 0; } summary { cursor: pointer; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; } td, th { text-align: left; padding: 2px 6px; vertical-align: top; border-bottom: 1px solid var(--line); }
td.request { font-family: ui-monospace, monospace; word-break: break-all; }
ul.assertions { margin: 2px 0; padding-left: 18px; } pre.diff { margin: 4px 0; padding: 6px; border: 1px solid var(--line); overflow-x: auto; }
.add { color: var(--ok); } .del { color: var(--bad); } .dim { color: var(--dim); }
label.filter { display: inline-block; margin: 8px 0; }
`;
