/**
 * The report's page script (plain ES2017, no library): reads the embedded JSON and builds the
 * page with createElement and textContent only; no string of the data ever becomes markup.
 * It is text here because the report must carry it inline.
 */
export const REPORT_SCRIPT = String.raw`
(function () {
	"use strict";
	var data = JSON.parse(document.getElementById("runnable-blocks-report").textContent);
	var root = document.getElementById("report");
	root.textContent = "";
	function el(tag, cls, text, parent) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined && text !== null) e.textContent = String(text);
		if (parent) parent.appendChild(e);
		return e;
	}
	function ms(v) { return v === null || v === undefined ? "" : v === 0 ? "0 ms" : v < 1000 ? v.toFixed(v < 10 ? 1 : 0) + " ms" : (v / 1000).toFixed(2) + " s"; }
	var STOPS = { bail: "--bail stopped the run at the first failure", deadline: "the run's --deadline passed", "max-requests": "the run's --max-requests was reached", interrupted: "the run was interrupted" };
	var notes = { passed: 0, failed: 0, error: 0, "not-run": 0 };
	var blocks = { passed: 0, failed: 0, cancelled: 0, skipped: 0, invalid: 0, "not-run": 0 };
	var total = 0;
	data.parts.forEach(function (part) {
		part.notes.forEach(function (n) {
			notes[n.status]++;
			n.blocks.forEach(function (b) { blocks[b.status]++; total++; });
		});
	});
	el("h1", "", "Runnable Blocks report", root);
	var summary = el("section", "summary", null, root);
	summary.id = "summary";
	el("span", "count", data.parts.reduce(function (s, p) { return s + p.notes.length; }, 0) + " notes, " + total + " blocks", summary);
	Object.keys(blocks).forEach(function (k) { if (blocks[k] > 0 || k === "passed" || k === "failed") el("span", "count " + k, blocks[k] + " " + k.replace("-", " "), summary).setAttribute("data-status", k); });
	if (notes.error > 0) el("span", "count error", notes.error + " notes could not run", summary);
	data.parts.forEach(function (part) {
		var line = el("p", "dim", part.label + ": started " + new Date(part.startedAt).toISOString().replace("T", " ").slice(0, 19) + " UTC, " + ms(part.wallMs), root);
		if (part.stopped) el("span", "stopped", " \u2014 stopped early: " + (STOPS[part.stopped] || part.stopped), line);
	});

	el("h2", "", "Timing waterfall", root);
	data.parts.forEach(function (part) {
		var wf = el("section", "waterfall", null, root);
		wf.setAttribute("data-part", part.label);
		if (data.parts.length > 1) el("div", "dim", part.label, wf);
		var span = Math.max(part.wallMs, 1);
		var axis = el("div", "wf-row wf-axis", null, wf);
		el("div", "wf-label", "", axis);
		var ticks = el("div", "wf-track", null, axis);
		[0, 0.25, 0.5, 0.75, 1].forEach(function (f) {
			var tick = el("span", "tick dim", ms(span * f), ticks);
			tick.style.left = f * 100 + "%";
		});
		part.notes.forEach(function (n) {
			var row = el("div", "wf-row", null, wf);
			el("div", "wf-label", n.path, row).title = n.path + " " + ms(n.durationMs);
			var track = el("div", "wf-track", null, row);
			n.blocks.forEach(function (b) {
				var bar = el("div", "bar " + b.status, null, track);
				var at = b.offsetMs !== null ? b.offsetMs : n.offsetMs !== null ? n.offsetMs : 0;
				bar.style.left = Math.min(100, (at / span) * 100) + "%";
				bar.style.width = Math.max(0, ((b.durationMs || 0) / span) * 100) + "%";
				bar.title = b.name + " (" + b.status + ") " + ms(b.durationMs);
				bar.setAttribute("data-block", n.path + "#" + b.name);
			});
		});
	});

	el("h2", "", "Notes", root);
	var filter = el("label", "filter", null, root);
	var only = el("input", "", null, filter);
	only.type = "checkbox";
	filter.appendChild(document.createTextNode(" only notes with failures"));
	var list = el("section", "notes", null, root);
	data.parts.forEach(function (part) {
		part.notes.forEach(function (n) {
			var d = el("details", "note " + n.status, null, list);
			d.setAttribute("data-status", n.status);
			if (n.status !== "passed") d.open = true;
			var s = el("summary", "", null, d);
			el("span", n.status, n.status.replace("-", " "), s);
			s.appendChild(document.createTextNode(" " + n.path + " "));
			el("span", "dim", n.blocks.length + " blocks " + ms(n.durationMs), s);
			if (n.error) el("p", "error", n.error, d);
			if (n.status === "not-run") el("p", "not-run", part.stopped ? "Not run: " + (STOPS[part.stopped] || part.stopped) : "Not run", d);
			var table = el("table", "", null, d);
			var head = el("tr", "", null, el("thead", "", null, table));
			["block", "status", "request", "HTTP", "time", "details"].forEach(function (h) { el("th", "", h, head); });
			var body = el("tbody", "", null, table);
			n.blocks.forEach(function (b) {
				var tr = el("tr", "block", null, body);
				tr.setAttribute("data-status", b.status);
				el("td", "", b.name + (b.dependency ? " (dependency)" : ""), tr);
				el("td", b.status, b.status.replace("-", " "), tr);
				el("td", "request", b.request, tr);
				el("td", "", b.httpStatus === null ? "" : b.httpStatus, tr);
				el("td", "", ms(b.durationMs), tr);
				var more = el("td", "", null, tr);
				if (b.error) el("div", "error", b.error, more);
				if (b.assertions.length) {
					var ul = el("ul", "assertions", null, more);
					b.assertions.forEach(function (a) {
						var li = el("li", a.ok ? "passed" : "failed", (a.ok ? "\u2713 " : "\u2717 ") + "line " + a.line + ": " + a.text, ul);
						if (!a.ok) el("div", "dim", (a.message || "failed") + " (actual: " + (a.actual === null ? "(none)" : a.actual) + ")", li);
					});
				}
				if (b.pinDiff !== null) {
					if (b.pinDiff === "") el("div", "passed", "matches its pin", more);
					else {
						var pre = el("pre", "diff", null, more);
						b.pinDiff.split("\n").forEach(function (l) { el("div", l.charAt(0) === "+" ? "add" : l.charAt(0) === "-" ? "del" : "", l, pre); });
					}
				}
			});
		});
	});
	only.addEventListener("change", function () {
		Array.prototype.forEach.call(list.children, function (d) { d.hidden = only.checked && d.getAttribute("data-status") === "passed"; });
	});
})();
`;
