/** A note of `blocks` http blocks with prose between them, as bench/parse and bench/editor read it. */
export function generateNote(blocks: number): string {
	const parts: string[] = ["# Generated note\n"];
	for (let i = 0; i < blocks; i++) {
		parts.push(`Some prose about request ${i}, with a [[link]] and *emphasis*.\n`);
		parts.push(
			`\`\`\`http alias=req${i} timeout=${1000 + i} display=split\n` +
				`# request ${i}\n` +
				`POST {{base_url}}/items/${i}\n` +
				`    ?page=${i}\n` +
				`    &q=search%20term\n` +
				`Content-Type: application/json\n` +
				`Authorization: Bearer {{login.response.body.$.token}}\n` +
				`X-Request-Id: {{uuid}}\n\n` +
				`{\n  "id": ${i},\n  "name": "item ${i}",\n  "tags": ["a", "b", "c"],\n  "ref": "{{req${Math.max(0, i - 1)}.response.body.$.id}}"\n}\n` +
				"```\n",
		);
	}
	return parts.join("\n");
}
