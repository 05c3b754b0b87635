// A cuttable link between the browser and `labwright serve`: an HTTP proxy on
// its own loopback port that forwards every request (streams included) and
// rewrites Host and Origin to the server's, so the server's loopback checks
// pass as for a direct connection. `cut()` drops every open connection at
// once (the browser sees its event stream break mid-run) and refuses new ones
// until `restore()`: a real network loss, not an emulation of one.
import { createServer, request } from "node:http";

export async function startProxy(target) {
  const upstream = new URL(target);
  const sockets = new Set();
  let down = false;
  let origin = "";
  const server = createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    const headers = { ...req.headers, host: upstream.host };
    if (headers.origin) headers.origin = upstream.origin;
    if (headers.referer) headers.referer = headers.referer.replace(origin, upstream.origin);
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    res.on("close", () => out.destroy());
    req.pipe(out);
  });
  server.on("connection", (socket) => {
    if (down) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
