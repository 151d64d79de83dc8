import { keepBothSides } from "../../../src/vcs/integrate";

describe("keepBothSides", () => {
	it("keeps our lines then theirs at every conflict, text around them untouched", () => {
		const text = "top\n<<<<<<< HEAD\nours 1\n=======\ntheirs 1\n>>>>>>> origin/main\nmiddle\n<<<<<<< HEAD\nours 2\n=======\ntheirs 2\n>>>>>>> origin/main\nend";
		expect(keepBothSides(text)).toBe("top\nours 1\ntheirs 1\nmiddle\nours 2\ntheirs 2\nend");
	});

	it("drops the base section of a diff3 conflict and keeps CRLF line ends", () => {
		const text = "<<<<<<< HEAD\r\nours\r\n||||||| base\r\nbase\r\n=======\r\ntheirs\r\n>>>>>>> b\r\n";
		expect(keepBothSides(text)).toBe("ours\r\ntheirs\r\n");
	});

	it("leaves marker-like lines outside a conflict as they are", () => {
		expect(keepBothSides("=======\nheading underline\n")).toBe("=======\nheading underline\n");
	});
});
