// Runs the demo API alone: `node examples/bookshop-api/serve.mjs [--port N]` (default 8787).
import server from "./server.cjs";

const { startBookshopApi } = server;

const i = process.argv.indexOf("--port");
const api = await startBookshopApi({ port: i > 0 ? Number(process.argv[i + 1]) : 8787 });
console.log(`listening on ${api.url}`);
