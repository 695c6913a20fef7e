// Serves a folder of skills with the official TypeScript MCP SDK's skills
// extension (io.modelcontextprotocol/skills), for the mcpskills provider's
// interop tests.
//
//   node server.mjs -skills DIR -stdio
//   node server.mjs -skills DIR -http 127.0.0.1:0 [-watch-stdin]
//
// Over HTTP it prints one line, the endpoint URL, once it listens; it then
// serves until it is signalled (SIGINT, SIGTERM) or, with -watch-stdin (the
// tests' way to make sure it never outlives them), until its stdin closes.
// Warnings of the SDK's catalog go to stderr.
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

function parseArgs(argv) {
  const opts = { skills: '', stdio: false, http: '', watchStdin: false };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '-skills': opts.skills = argv[++i] ?? ''; break;
      case '-stdio': opts.stdio = true; break;
      case '-http': opts.http = argv[++i] ?? ''; break;
      case '-watch-stdin': opts.watchStdin = true; break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (opts.skills === '' || opts.stdio === (opts.http !== '')) {
    throw new Error('usage: server.mjs -skills DIR (-stdio | -http HOST:PORT [-watch-stdin])');
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
// The catalog is built once; every server instance the SDK asks for
// (one per HTTP request, one per stdio connection) serves it.
const catalog = await loadSkills(opts.skills, { onWarning: (w) => console.error(`warning: ${w.path}: ${w.message}`) });
const factory = () => {
  const server = new McpServer({ name: 'ts-skills-fixture', version: '1.0.0' }, { capabilities: { resources: {} } });
  catalog.attach(server);
  return server;
};

if (opts.stdio) {
  serveStdio(factory);
} else {
  const handler = createMcpHandler(factory);
  const srv = http.createServer((req, res) => { serve(handler, req, res); });
  const [host, port] = splitHostPort(opts.http);
  srv.listen(port, host, () => {
    const addr = srv.address();
    process.stdout.write(`http://${addr.address}:${addr.port}/mcp\n`);
  });
  const stop = () => { srv.close(); handler.close().finally(() => process.exit(0)); };
  if (opts.watchStdin) {
    process.stdin.on('end', stop);
    process.stdin.resume();
  }
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function splitHostPort(hostPort) {
  const at = hostPort.lastIndexOf(':');
  if (at < 0) throw new Error(`-http wants HOST:PORT, got ${hostPort}`);
  return [hostPort.slice(0, at), Number(hostPort.slice(at + 1))];
}

// serve adapts a node:http exchange to the handler's web-standard fetch.
async function serve(handler, req, res) {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
      else if (value !== undefined) headers.set(name, value);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      signal: abort.signal,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) {
      res.end();
      return;
    }
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error));
  }
}
