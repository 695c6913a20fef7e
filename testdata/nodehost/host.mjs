// A reference host of the skill-catalog plugin protocol in Node.js, written
// from proto/HOSTS.md alone: it starts the plugin binary, completes the
// go-plugin handshake, serves the host's callbacks on the broker, and runs
// a short scripted session (a catalog, a skill load, a skill added between
// steps, a second agent in a second session).
//
//   npm ci --prefix testdata/nodehost
//   node testdata/nodehost/host.mjs PLUGIN_BINARY
//
// HOSTCHECK_BREAK=token|recent|pages|sources makes it break one promise on
// purpose, for the host checker's own tests (skillcatalog hostcheck).
// NODEHOST_CERT and NODEHOST_KEY, paths of a PEM certificate and key made as
// proto/HOSTS.md's mutual TLS recipe says, make it speak mutual TLS.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

const here = path.dirname(fileURLToPath(import.meta.url));
const protoRoot = path.join(here, "..", "..", "proto");
const breakMode = process.env.HOSTCHECK_BREAK ?? "";
const MAX_MESSAGE = 64 << 20; // both ends accept 64 MiB
const mtls = process.env.NODEHOST_CERT
  ? { cert: readFileSync(process.env.NODEHOST_CERT), key: readFileSync(process.env.NODEHOST_KEY) }
  : null;

const pluginPath = process.argv[2];
if (!pluginPath) {
  console.error("usage: node host.mjs PLUGIN_BINARY");
  process.exit(2);
}

const def = protoLoader.loadSync(
  ["skillcatalog/v1/skillcatalog.proto", "goplugin/plugin/grpc_broker.proto", "goplugin/plugin/grpc_controller.proto"],
  { includeDirs: [protoRoot, path.join(protoRoot, "goplugin")], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true },
);
const pkg = grpc.loadPackageDefinition(def);
const v1 = pkg.skillcatalog.v1;

// ---- Skills and the session log the host keeps ---------------------------

const policy = { model_invocable: true, user_invocable: true };
const skills = new Map([
  ["pdf-forms", { name: "pdf-forms", description: "Fill in PDF forms.", invocation: policy, provider: "node", argument_hint: "[form-file]", content: "Use the form's field names." }],
  ["release-notes", { name: "release-notes", description: "Write release notes.", invocation: { model_invocable: false, user_invocable: true }, provider: "node", content: "Group by area." }],
]);

function summaries() {
  return [...skills.values()]
    .map(({ content, ...s }) => s)
    .sort((a, b) => (Buffer.from(a.name) < Buffer.from(b.name) ? -1 : 1));
}

// The token names the content: a hash of every field of every summary, in order.
let tokenCalls = 0;
function snapshotToken(list) {
  if (breakMode === "token") return `rev-${++tokenCalls}`; // broken on purpose: not derived from content
  const h = createHash("sha256");
  for (const s of list) {
    for (const field of [s.name, s.description, String(s.invocation.model_invocable), String(s.invocation.user_invocable), s.provider, s.origin ?? "", s.qualified_name ?? "", s.argument_hint ?? ""]) {
      h.update(`${Buffer.byteLength(field)}:${field};`);
    }
  }
  return h.digest("hex").slice(0, 32);
}

const logs = new Map(); // session id -> [{seq, type, source_json, visible}], oldest first
function log(session) {
  if (!logs.has(session)) logs.set(session, []);
  return logs.get(session);
}
function head(session) {
  const events = log(session);
  return { head_seq: events.length ? events[events.length - 1].seq : 0, surface_revision: 0 };
}
function append(session, messages) {
  const events = log(session);
  for (const m of messages) {
    // broken on purpose with "sources": the plugin's messages stored without the source_json they carry
    const source = breakMode === "sources" ? Buffer.alloc(0) : (m.source_json ?? Buffer.alloc(0));
    events.push({ seq: events.length + 1, type: "message", source_json: source, visible: true, message: m });
  }
}
// eventsBetween returns the events with after < seq < before (before 0: no bound), newest first.
function eventsBetween(session, after, before) {
  return log(session)
    .filter((e) => e.seq > after && (before === 0 || e.seq < before))
    .reverse()
    .map(({ seq, type, source_json, visible }) => ({ seq, type, source_json, visible }));
}

// ---- The host's callbacks -------------------------------------------------

const hostService = {
  Snapshot(call, cb) {
    const list = summaries();
    const token = snapshotToken(list);
    if (call.request.if_none_match && call.request.if_none_match === token) {
      return cb(null, { not_modified: true, token, complete: true });
    }
    cb(null, { token, skills: list, complete: true });
  },
  GetSkill(call, cb) {
    const s = skills.get(call.request.name);
    if (!s) return cb(null, { found: false });
    const mayUse = s.invocation.model_invocable || (call.request.user_invocation && s.invocation.user_invocable);
    const { content, ...summary } = s;
    cb(null, { found: true, skill: { ...summary, content: mayUse ? content : "" } });
  },
  ReadEvents(call, cb) {
    const { session_id, before_seq, after_seq, max_events } = call.request;
    const all = eventsBetween(session_id, after_seq, before_seq);
    const size = breakMode === "pages" ? all.length : Math.max(1, Math.min(max_events || 4096, 4096));
    cb(null, { events: all.slice(0, size), head: head(session_id), more: all.length > size });
  },
  ReadResource(call, cb) {
    cb({ code: grpc.status.UNIMPLEMENTED, details: "this host serves no skill resources" });
  },
};

// ---- Starting the plugin and the broker ---------------------------------

function startPlugin() {
  const child = spawn(pluginPath, [], {
    env: {
      ...process.env, SKILLCATALOG_PLUGIN: "6f1d2a8c-skillcatalog-plugin-b47e0c93", PLUGIN_PROTOCOL_VERSIONS: "1",
      ...(mtls ? { PLUGIN_CLIENT_CERT: mtls.cert.toString() } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr.on("data", () => {}); // the plugin's JSON log lines; a real host would relay them
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      const nl = buffered.indexOf("\n");
      if (nl < 0) return;
      const fields = buffered.slice(0, nl).split("|");
      // core version | app version | network | address | protocol | certificate (empty in plaintext)
      if (fields.length !== 6 || fields[0] !== "1" || fields[1] !== "1" || fields[4] !== "grpc") {
        reject(new Error(`unexpected handshake line ${JSON.stringify(buffered.slice(0, nl))}`));
        return;
      }
      if (mtls && !fields[5]) {
        reject(new Error("the handshake line has no server certificate"));
        return;
      }
      // The plugin's certificate: DER in unpadded standard base64, made PEM.
      const pluginCert = mtls
        ? Buffer.from(`-----BEGIN CERTIFICATE-----\n${Buffer.from(fields[5], "base64").toString("base64").replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`)
        : null;
      resolve({ child, network: fields[2], address: fields[3], pluginCert });
    });
    child.on("exit", (code) => reject(new Error(`plugin exited with ${code} before its handshake`)));
  });
}

function target(network, address) {
  return network === "unix" ? `unix:${address}` : address;
}

const options = { "grpc.max_receive_message_length": MAX_MESSAGE, "grpc.max_send_message_length": MAX_MESSAGE };

async function serveCallbacks(dir, pluginCert) {
  const server = new grpc.Server(options);
  server.addService(v1.HostService.service, hostService);
  const address = path.join(dir, "host.sock");
  // With mutual TLS: the host's certificate serves, the plugin's is the only client CA, and it must present it.
  const creds = pluginCert
    ? grpc.ServerCredentials.createSsl(pluginCert, [{ cert_chain: mtls.cert, private_key: mtls.key }], true)
    : grpc.ServerCredentials.createInsecure();
  await new Promise((resolve, reject) =>
    server.bindAsync(`unix:${address}`, creds, (err) => (err ? reject(err) : resolve())),
  );
  return { server, address };
}

function call(client, method, request) {
  return new Promise((resolve, reject) => client[method](request, (err, resp) => (err ? reject(err) : resolve(resp))));
}

// applyEdits applies a PreStep's edits to the proposed messages: removals
// and replacements by index, then appends in order.
function applyEdits(proposed, edits) {
  const removed = new Set();
  const out = proposed.slice();
  const appended = [];
  for (const e of edits) {
    if (e.edit === "remove") removed.add(e.remove);
    else if (e.edit === "replace") out[e.replace.index] = e.replace.message;
    else if (e.edit === "append") appended.push(e.append);
  }
  return out.filter((_, i) => !removed.has(i)).concat(appended);
}

function text(id, role, body, userInput = false) {
  return { id, role, content: [{ type: "text", text: body }], user_input: userInput };
}

// ---- The session ---------------------------------------------------------

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "nodehost-")); // mode 0700: only this user reaches the socket
  const { child, network, address, pluginCert } = await startPlugin();
  // With mutual TLS: the plugin's certificate is the only root, the host's the client certificate, server name localhost.
  const creds = pluginCert ? grpc.credentials.createSsl(pluginCert, mtls.key, mtls.cert) : grpc.credentials.createInsecure();
  const dialOptions = pluginCert ? { ...options, "grpc.ssl_target_name_override": "localhost" } : options;
  const plugin = new v1.PluginService(target(network, address), creds, dialOptions);
  const broker = new pkg.plugin.GRPCBroker(target(network, address), creds, dialOptions);
  const controller = new pkg.plugin.GRPCController(target(network, address), creds, dialOptions);
  const { server, address: hostAddress } = await serveCallbacks(dir, pluginCert);

  // Announce the callback listener on the broker before naming its id.
  const stream = broker.StartStream();
  stream.on("data", () => {});
  stream.on("error", () => {});
  const brokerID = 1;
  stream.write({ service_id: brokerID, network: "unix", address: hostAddress });

  const configured = await call(plugin, "Configure", { config_json: "{}", host_service_broker_id: brokerID, scope: "global" });
  // Mint one identity per registered tool definition.
  const identities = new Map();
  let minted = 0;
  for (const tool of configured.tools) {
    identities.set(tool.name, `node-tool-${++minted}-${randomBytes(8).toString("hex")}`);
  }
  await call(plugin, "BindTools", {
    mount_id: configured.mount_id,
    bindings: [...identities].map(([tool_name, definition_identity]) => ({ tool_name, definition_identity })),
  });

  const sentHead = new Map(); // session -> head sent at its previous step
  async function step(session, scope, n, proposed) {
    const h = head(session);
    const req = {
      mount_id: configured.mount_id, session_id: session, cwd: process.cwd(), agent_scope: scope, turn: 1, step: n,
      downstream: { enter: { messages: proposed } },
      skill_tool_identity: identities.get("skill") ?? "",
      snapshot_token: snapshotToken(summaries()),
      session_head: h,
    };
    if (sentHead.has(session)) {
      const after = sentHead.get(session);
      let events = eventsBetween(session, after, 0);
      if (breakMode === "recent" && events.length > 1) events = events.slice(1); // broken on purpose: a gap
      req.recent_events = { after_seq: after, events };
    }
    sentHead.set(session, h.head_seq);
    const resp = await call(plugin, "PreStep", req);
    const messages = applyEdits(proposed, resp.edits);
    append(session, messages);
    console.log(`${session} step ${n}: ${resp.outcome}, ${messages.length} messages appended`);
    return messages;
  }

  const published = await step("s1", "agent:reviewer", 1, [text("u1", "ROLE_USER", "Fill in forms/w9.pdf.", true)]);
  if (!published.some((m) => m.content.some((b) => b.text.includes("`pdf-forms`")))) throw new Error("the catalog does not list pdf-forms");
  const result = await call(plugin, "ExecuteSkillTool", {
    mount_id: configured.mount_id, session_id: "s1", cwd: process.cwd(), agent_scope: "agent:reviewer",
    arguments_json: JSON.stringify({ name: "pdf-forms" }), call_id: "call-1", tool_name: "skill",
    skill_tool_identity: identities.get("skill"),
  });
  console.log(`skill pdf-forms: ${result.text.split("\n")[0]}`);
  await step("s1", "agent:reviewer", 2, [text("a1", "ROLE_ASSISTANT", 'skill {"name":"pdf-forms"}'), text("r1", "ROLE_TOOL", result.text)]);
  skills.set("code-review", { name: "code-review", description: "Review a change.", invocation: policy, provider: "node", content: "Read the diff twice." });
  await step("s1", "agent:reviewer", 3, [text("a2", "ROLE_ASSISTANT", "Done.")]);
  await step("s2", "agent:writer", 1, [text("u2", "ROLE_USER", "Hello.", true)]);
  await step("s2", "agent:writer", 2, [text("a3", "ROLE_ASSISTANT", "Hi.")]);

  await call(controller, "Shutdown", {}).catch(() => {});
  stream.end();
  server.forceShutdown();
  plugin.close();
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error("node host:", err.message);
  process.exit(1);
});
