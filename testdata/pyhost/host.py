"""A reference host of the skill-catalog plugin protocol in Python, on the short path of
proto/HOSTS.md: the plugin discovers the skills of a directory itself, and the host serves
only its session log (ReadEvents) and the tools' identities. It starts the plugin, serves the
log on go-plugin's broker and runs a scripted session (a catalog, a skill load, a resource read,
a skill added on disk and the replacement, the model's final answers), checking each answer. Needs
grpcio, grpcio-tools and protobuf; the stubs are generated at run time.

Usage: python3 host.py PLUGIN_BINARY [SESSION_ID]. The session id is SESSION_ID, else the environment's
PYHOST_SESSION, else a new random one; a second session, "<id>-2", runs another agent."""
import contextlib, json, os, queue, shutil, subprocess, sys, tempfile, threading, time
from concurrent import futures
import grpc
from grpc_tools import protoc

PROTO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "proto")
MAX_MESSAGE = 64 << 20  # both ends accept 64 MiB
OPTIONS = [("grpc.max_receive_message_length", MAX_MESSAGE), ("grpc.max_send_message_length", MAX_MESSAGE)]


def expect(ok, what):
    if not ok:
        raise SystemExit("python host: " + what)


def load_stubs(out):
    """Generate the stubs of the protocol and of go-plugin's broker and controller into out."""
    os.makedirs(out)
    files = ["skillcatalog/v1/skillcatalog.proto", "plugin/grpc_broker.proto", "plugin/grpc_controller.proto"]
    args = ["protoc", "-I" + PROTO, "-I" + os.path.join(PROTO, "goplugin"), "--python_out=" + out, "--grpc_python_out=" + out]
    expect(protoc.main(args + files) == 0, "protoc failed")
    sys.path.insert(0, out)
    from skillcatalog.v1 import skillcatalog_pb2 as pb, skillcatalog_pb2_grpc as rpc
    from plugin import grpc_broker_pb2 as broker_pb, grpc_broker_pb2_grpc as broker_rpc, grpc_controller_pb2 as ctl_pb
    from plugin import grpc_controller_pb2_grpc as ctl_rpc
    return pb, rpc, broker_pb, broker_rpc, ctl_pb, ctl_rpc


class Log:
    """Each session's durable log, in memory, oldest event first: every event with the message it
    records, which the host reads back to build the model's requests (transcript)."""

    def __init__(self, pb):
        self.pb, self.sessions, self.lock = pb, {}, threading.Lock()

    def head(self, session):
        with self.lock:
            return len(self.sessions.get(session, []))  # seq numbers are 1, 2, ...

    def append(self, session, messages):  # messages, each with its source_json byte for byte
        with self.lock:
            events = self.sessions.setdefault(session, [])
            events += [{"seq": len(events) + i + 1, "type": "message", "source_json": m.source_json, "visible": True,
                        "message": m} for i, m in enumerate(messages)]

    def transcript(self, session):  # the messages the model sees, oldest first
        with self.lock:
            return [e["message"] for e in self.sessions.get(session, []) if e["visible"]]

    def between(self, session, after, before=0):  # after < seq < before (before 0: no bound), newest first
        with self.lock:
            return [self.pb.SessionEvent(seq=e["seq"], type=e["type"], source_json=e["source_json"], visible=e["visible"])
                    for e in reversed(self.sessions.get(session, [])) if e["seq"] > after and (before == 0 or e["seq"] < before)]

    def ReadEvents(self, req, ctx):  # HostService.ReadEvents: pages of at most 4096 events
        events, size = self.between(req.session_id, req.after_seq, req.before_seq), max(1, min(req.max_events or 4096, 4096))
        return self.pb.ReadEventsResponse(events=events[:size],
                                          head=self.pb.SessionHead(head_seq=self.head(req.session_id)), more=len(events) > size)


def connect(plugin_path, work, stubs, log):
    """Start the plugin, dial it, serve the log and announce it on the broker as id 1."""
    pb, rpc, broker_pb, broker_rpc, ctl_pb, ctl_rpc = stubs
    env = dict(os.environ, SKILLCATALOG_PLUGIN="6f1d2a8c-skillcatalog-plugin-b47e0c93", PLUGIN_PROTOCOL_VERSIONS="1")
    # The plugin's JSON log goes to the null device: a pipe nobody reads would block it.
    child = subprocess.Popen([plugin_path], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    fields = child.stdout.readline().decode().strip().split("|")
    # core version | app version | network | address | protocol | certificate (empty in plaintext)
    expect(len(fields) == 6 and fields[:2] == ["1", "1"] and fields[4] == "grpc", "handshake line %r" % fields)
    channel = grpc.insecure_channel(("unix:" if fields[2] == "unix" else "") + fields[3], options=OPTIONS)
    server, sock = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=OPTIONS), os.path.join(work, "host.sock")
    # Only ReadEvents: Snapshot, GetSkill and ReadResource answer UNIMPLEMENTED, the plugin discovers the skills.
    rpc.add_HostServiceServicer_to_server(type("HostService", (rpc.HostServiceServicer,), {"ReadEvents": log.ReadEvents})(), server)
    server.add_insecure_port("unix:" + sock)
    server.start()
    # Announce the listener before naming its id, and keep the stream open while the plugin runs.
    outbox = queue.Queue()
    outbox.put(broker_pb.ConnInfo(service_id=1, network="unix", address=sock))
    stream = broker_rpc.GRPCBrokerStub(channel).StartStream(iter(outbox.get, None))
    threading.Thread(target=drain, args=(stream,), daemon=True).start()

    def close():
        with contextlib.suppress(grpc.RpcError):  # the plugin may close the connection before answering
            ctl_rpc.GRPCControllerStub(channel).Shutdown(ctl_pb.Empty())
        outbox.put(None)
        server.stop(0)
        channel.close()
        child.wait(timeout=10)
    return rpc.PluginServiceStub(channel), close


def drain(stream):
    with contextlib.suppress(grpc.RpcError):  # until the connection closes
        for _ in stream:
            pass  # the plugin offers no listener of its own


def apply_edits(proposed, edits):
    """Removals and replacements by index, then appends in order."""
    out, removed, appended = list(proposed), set(), []
    for e in edits:
        kind = e.WhichOneof("edit")
        if kind == "remove":
            removed.add(e.remove)
        elif kind == "replace":
            out[e.replace.index] = e.replace.message
        else:
            appended.append(e.append)
    return [m for i, m in enumerate(out) if i not in removed] + appended


class Session:
    """The mount, its tools bound, and the steps and tool calls of the script."""

    def __init__(self, pb, plugin, log, cwd, discovery):
        self.pb, self.plugin, self.log, self.cwd, self.sent, self.calls = pb, plugin, log, cwd, {}, 0
        self.mount = plugin.Configure(pb.ConfigureRequest(config_json='{"resourceTool": true}', discovery_json=discovery,
                                                          host_service_broker_id=1, scope="global"))
        expect(self.mount.discovers_skills, "the plugin does not discover the skills")
        self.ids = {t.name: "py-tool-%d-%s" % (i, os.urandom(8).hex()) for i, t in enumerate(self.mount.tools)}
        plugin.BindTools(pb.BindToolsRequest(mount_id=self.mount.mount_id, bindings=[
            pb.ToolBinding(tool_name=n, definition_identity=i) for n, i in self.ids.items()]))

    def text(self, id, role, body, user=False):
        return self.pb.Message(id=id, role=role, content=[self.pb.ContentBlock(type="text", text=body)], user_input=user)

    def step(self, session, scope, turn, n, proposed):
        """Model call n of a turn (a turn starts with the user's message): the messages proposed are those
        that reached the conversation since the previous step."""
        pb, head = self.pb, self.log.head(session)
        req = pb.PreStepRequest(mount_id=self.mount.mount_id, session_id=session, cwd=self.cwd, agent_scope=scope, turn=turn, step=n,
                                downstream=pb.Decision(enter=pb.EnterDecision(messages=proposed)),
                                skill_tool_identity=self.ids["skill"], session_head=pb.SessionHead(head_seq=head))
        if session in self.sent:  # every event since the head sent at the session's previous step
            events = self.log.between(session, self.sent[session])
            req.recent_events.CopyFrom(pb.RecentEvents(after_seq=self.sent[session], events=events))
        self.sent[session] = head
        resp = self.plugin.PreStep(req)
        messages = apply_edits(proposed, resp.edits)
        self.log.append(session, messages)
        outcome = pb.Outcome.Name(resp.outcome)
        print("%s turn %d step %d: %s, %d messages appended" % (session, turn, n, outcome, len(messages)))
        return outcome, "".join(b.text for m in messages for b in m.content)

    def answer(self, session, id, body):
        """The model's final answer of a turn: no step follows it, so it goes to the log here."""
        self.log.append(session, [self.text(id, "ROLE_ASSISTANT", body)])

    def call(self, session, scope, tool, args):
        self.calls += 1
        return self.plugin.ExecuteSkillTool(self.pb.ExecuteSkillToolRequest(
            mount_id=self.mount.mount_id, session_id=session, cwd=self.cwd, agent_scope=scope, arguments_json=json.dumps(args),
            call_id="call-%d" % self.calls, tool_name=tool, skill_tool_identity=self.ids["skill"]))


def write_skill(root, name, body):
    os.makedirs(os.path.join(root, name))
    with open(os.path.join(root, name, "SKILL.md"), "w") as f:
        f.write("---\nname: %s\ndescription: The %s skill.\n---\n%s\n" % (name, name, body))


def script(s, root, sid):
    other, reviewer, writer = sid + "-2", "agent:reviewer", "agent:writer"
    outcome, catalog = s.step(sid, reviewer, 1, 1, [s.text("u1", "ROLE_USER", "Fill in forms/w9.pdf.", True)])
    expect(outcome == "OUTCOME_INITIAL" and "`pdf-forms`" in catalog, "the first step did not publish pdf-forms: " + outcome)
    loaded = s.call(sid, reviewer, "skill", {"name": "pdf-forms"})
    expect(not loaded.is_error and loaded.value.content.strip() == "Use the form's field names.", "skill pdf-forms: " + loaded.text)
    print("skill pdf-forms: " + loaded.text.split("\n")[0])
    read = s.call(sid, reviewer, "skill_resource", {"name": "pdf-forms", "path": "fields.md", "offset": 0})
    expect(not read.is_error and read.resource_value.content == "name, date, signature\n", "skill_resource: " + read.text)
    print("skill_resource fields.md: %d bytes" % read.resource_value.total_bytes)
    outcome, _ = s.step(sid, reviewer, 1, 2, [s.text("a1", "ROLE_ASSISTANT", 'skill {"name":"pdf-forms"}'),
                                              s.text("r1", "ROLE_TOOL", loaded.text)])
    expect(outcome == "OUTCOME_UNCHANGED", "the step after the load: " + outcome)
    write_skill(root, "code-review", "Read the diff twice.")
    for n in range(3, 400):  # empty steps until the plugin's watcher sees it, for at most about 20 s
        outcome, catalog = s.step(sid, reviewer, 1, n, [])
        if outcome != "OUTCOME_UNCHANGED":
            break
        time.sleep(0.05)
    expect(outcome == "OUTCOME_REPLACEMENT" and "`code-review`" in catalog, "the added skill was not published: " + outcome)
    s.answer(sid, "a2", "Filled in forms/w9.pdf with the form's field names.")
    outcome, _ = s.step(sid, reviewer, 2, 1, [s.text("u2", "ROLE_USER", "Thanks. Now review my diff.", True)])
    expect(outcome == "OUTCOME_UNCHANGED", "the second turn's first step: " + outcome)
    outcome, _ = s.step(other, writer, 1, 1, [s.text("u3", "ROLE_USER", "Hello.", True)])
    expect(outcome == "OUTCOME_INITIAL", "the second session's first step: " + outcome)
    s.answer(other, "a3", "Hi.")
    s.step(other, writer, 2, 1, [s.text("u4", "ROLE_USER", "Draft a release note.", True)])
    seen = s.log.transcript(sid)  # what the model's next request in the session would carry
    texts = ["".join(b.text for b in m.content) for m in seen]
    expect(texts[0] == "Fill in forms/w9.pdf." and texts[-1] == "Thanks. Now review my diff." and
           "Filled in forms/w9.pdf with the form's field names." in texts, "the transcript of %s: %r" % (sid, texts))
    print("%s transcript: %d messages, %d of them the plugin's" % (sid, len(seen), sum(1 for m in seen if m.source_json)))


def main(plugin_path, sid):
    work = tempfile.mkdtemp(prefix="pyhost-")  # mode 0700: only this user reaches the socket
    try:
        stubs, root, home = load_stubs(os.path.join(work, "stubs")), os.path.join(work, "skills"), os.path.join(work, "home")
        os.makedirs(home)
        write_skill(root, "pdf-forms", "Use the form's field names.")
        with open(os.path.join(root, "pdf-forms", "fields.md"), "w") as f:
            f.write("name, date, signature\n")
        log = Log(stubs[0])
        plugin, close = connect(plugin_path, work, stubs, log)
        try:
            script(Session(stubs[0], plugin, log, work, json.dumps({"skillRoots": [root], "homeDir": home})), root, sid)
        finally:
            close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    expect(len(sys.argv) in (2, 3), "usage: python3 host.py PLUGIN_BINARY [SESSION_ID]")
    main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else os.environ.get("PYHOST_SESSION") or "py-" + os.urandom(8).hex())
