import { OrderedOutput } from "../../../../src/cli/suite/ordered-output";

describe("OrderedOutput", () => {
	it("writes the head note through and holds the others until every note before them has finished", () => {
		const log: string[] = [];
		const o = new OrderedOutput((s) => log.push(`out:${s}`), (s) => log.push(`err:${s}`));
		const [a, b, c] = [o.writers(0), o.writers(1), o.writers(2)];
		c.out("c1");
		b.out("b1");
		a.out("a1");
		b.err("b2");
		expect(log).toEqual(["out:a1"]);
		o.finish(2);
		expect(log).toEqual(["out:a1"]);
		o.finish(0);
		expect(log).toEqual(["out:a1", "out:b1", "err:b2"]);
		b.out("b3");
		expect(log).toEqual(["out:a1", "out:b1", "err:b2", "out:b3"]);
		o.finish(1);
		expect(log).toEqual(["out:a1", "out:b1", "err:b2", "out:b3", "out:c1"]);
	});
});
