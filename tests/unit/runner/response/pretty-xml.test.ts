import { prettyMarkup } from "../../../../src/runner/response/pretty-xml";

describe("markup pretty-printing", () => {
	it("indents nested tags and keeps text, comments and script bodies as text", () => {
		const out = prettyMarkup('<?xml version="1.0"?><a><b x="1">t</b><!-- c<d> --><br/><script>if (a<b) {}</script></a>');
		expect(out).toBe(['<?xml version="1.0"?>', "<a>", '  <b x="1">', "    t", "  </b>", "  <!-- c<d> -->", "  <br/>", "  <script>if (a<b) {}</script>", "</a>"].join("\n"));
	});

	it("leaves markup that is already laid out alone", () => {
		const text = "<a>\n  <b/>\n</a>\n";
		expect(prettyMarkup(text)).toBe(text);
	});
});
