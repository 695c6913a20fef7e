// Drives `skillcatalog serve-mcp` with the official TypeScript SDK's MCP
// Skills extension client (@modelcontextprotocol/client/ext/skills), as
// cmd/skillcatalog/tsskills_test.go runs it:
//
//   node skills.mjs stdio REVISION COMMAND [ARG...]
//   node skills.mjs http REVISION URL TOKEN
//
// REVISION is "legacy" (the client's default, base revision 2025-11-25) or
// "modern" (pinned to 2026-07-28). The script lists every skill (walking all
// pages, and again page by page), gets each by URI, asks for an unknown
// skill and with a bad cursor, reads every file of every entry (the SDK
// verifies size, digest and, for SKILL.md, frontmatter; the script hashes
// the bytes itself too) and reads every directory of every skill. It prints
// one JSON object with what it saw and exits 0, or prints the error and
// exits 1.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SKILLS_EXTENSION_ID, SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";

const [mode, revision, target, ...rest] = process.argv.slice(2);

function transport() {
  if (mode === "stdio") {
    return new StdioClientTransport({ command: target, args: rest, stderr: "inherit" });
  }
  if (mode === "http") {
    return new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } } });
  }
  throw new Error(`unknown mode ${mode}`);
}

function options() {
  if (revision === "modern") {
    return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  }
  if (revision === "legacy") {
    return {};
  }
  throw new Error(`unknown revision ${revision}`);
}

// The JSON-RPC error a call failed with.
async function failure(call) {
  try {
    await call();
  } catch (err) {
    return { code: err.code, message: String(err.message) };
  }
  return { code: 0, message: "no error" };
}

async function main() {
  const client = new Client({ name: "skillcatalog-skills-test", version: "1.0.0" }, options());
  await client.connect(transport());
  const skills = new SkillsClient(client);
  const caps = client.getServerCapabilities() ?? {};
  const out = {
    protocolVersion: client.getNegotiatedProtocolVersion(),
    extension: caps.extensions?.[SKILLS_EXTENSION_ID] ?? null,
    resources: caps.resources !== undefined,
    supported: skills.supported,
    directoryRead: skills.directoryRead,
  };

  const listing = await skills.list();
  out.skills = listing.skills;
  out.listCache = { ttlMs: listing.ttlMs ?? null, cacheScope: listing.cacheScope ?? null };

  // Page by page: the same entries, in the same order.
  const paged = [];
  let cursor = "";
  out.pages = 0;
  do {
    const page = await skills.list({ cursor });
    paged.push(...page.skills);
    out.pages++;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  out.pagedSame = isDeepStrictEqual(paged, listing.skills);

  out.getSame = true;
  for (const entry of listing.skills) {
    const got = await skills.get(entry.uri);
    if (!isDeepStrictEqual(got.skill, entry)) {
      out.getSame = false;
    }
  }
  out.unknown = await failure(() => skills.get("skill://acme/billing/chargebacks/SKILL.md"));
  out.badCursor = await failure(() => skills.list({ cursor: "not-a-cursor" }));

  // Every file of every entry, verified by the SDK and hashed here.
  out.reads = [];
  for (const entry of listing.skills) {
    for (const resource of entry.resources) {
      const file = await skills.read(entry, resource.uri);
      const digest = "sha256:" + createHash("sha256").update(file.bytes).digest("hex");
      out.reads.push({
        skill: entry.uri,
        uri: resource.uri,
        size: file.bytes.byteLength,
        digest,
        matches: digest === resource.digest && file.bytes.byteLength === resource.size,
        verified: file.verified,
        frontmatterChecked: file.frontmatter !== undefined,
      });
    }
  }

  // Every directory of every skill, from its root down.
  out.directories = {};
  for (const entry of listing.skills) {
    const pending = [entry.uri.slice(0, -"/SKILL.md".length)];
    while (pending.length > 0) {
      const dir = pending.shift();
      const { resources } = await skills.readDirectory(dir);
      out.directories[dir] = resources.map((r) => ({ uri: r.uri, name: r.name, mimeType: r.mimeType ?? null }));
      pending.push(...resources.filter((r) => r.mimeType === "inode/directory").map((r) => r.uri));
    }
  }
  out.fileAsDirectory = await failure(() => skills.readDirectory(listing.skills[0].uri));

  await client.close();
  return JSON.stringify(out) + "\n";
}

// The output is large: exit only once it is written, or a pipe gets part.
main().then(
  (json) => process.stdout.write(json, () => process.exit(0)),
  (err) => {
    process.stderr.write(`skills.mjs: ${err.stack || err}\n`);
    process.exit(1);
  },
);
