// Drives `skillcatalog serve-mcp` with the official TypeScript MCP SDK
// client, as cmd/skillcatalog/tsclient_test.go runs it:
//
//   node client.mjs stdio SKILLS_DIR COMMAND [ARG...]
//   node client.mjs http SKILLS_DIR URL TOKEN
//
// It lists the resources, reads the index, a SKILL.md and a file below a
// skill, adds a file to the skills directory and waits for the server's
// resources/list_changed notification. It prints one JSON object with what
// it saw and exits 0, or prints the error and exits 1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [mode, skillsDir, target, ...rest] = process.argv.slice(2);

function transport(headers) {
  if (mode === "stdio") {
    return new StdioClientTransport({ command: target, args: rest, stderr: "inherit" });
  }
  if (mode === "http") {
    return new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
  }
  throw new Error(`unknown mode ${mode}`);
}

async function main() {
  const out = {};
  if (mode === "http") {
    // Without the token the server refuses the connection.
    const anonymous = new Client({ name: "skillcatalog-test", version: "1.0.0" });
    try {
      await anonymous.connect(transport({}));
      out.anonymousConnected = true;
      await anonymous.close();
    } catch (err) {
      out.anonymousError = String(err.message || err);
      out.anonymousRefused = err.code === 401; // StreamableHTTPError carries the HTTP status
    }
  }

  const client = new Client({ name: "skillcatalog-test", version: "1.0.0" });
  let notified;
  const changed = new Promise((resolve) => { notified = resolve; });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => notified());
  await client.connect(transport(rest[0] ? { Authorization: `Bearer ${rest[0]}` } : {}));
  out.listChanged = client.getServerCapabilities()?.resources?.listChanged === true;

  const listed = await client.listResources();
  out.resources = listed.resources.map((r) => r.uri).sort();

  const index = await client.readResource({ uri: "skill://index.json" });
  out.index = JSON.parse(index.contents[0].text).skills.map((s) => `${s.name}: ${s.description}`);

  const skillMd = await client.readResource({ uri: "skill://data-export/SKILL.md" });
  out.skillMd = skillMd.contents[0].text.split("\n").slice(0, 3);

  const child = await client.readResource({ uri: "skill://data-export/scripts/export_csv.py" });
  out.child = { mimeType: child.contents[0].mimeType, firstLine: child.contents[0].text.split("\n")[0] };

  try {
    await client.readResource({ uri: "skill://data-export/../../secret" });
    out.traversalRead = true;
  } catch (err) {
    out.traversalRefused = true;
  }

  writeFileSync(join(skillsDir, "data-export", "scripts", "added.py"), "print('added')\n");
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no resources/list_changed notification within 30 s")), 30000));
  await Promise.race([changed, timeout]);
  out.notifiedAfterAdd = true;
  const added = await client.readResource({ uri: "skill://data-export/scripts/added.py" });
  out.added = added.contents[0].text;

  await client.close();
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`client.mjs: ${err.stack || err}\n`);
    process.exit(1);
  },
);
