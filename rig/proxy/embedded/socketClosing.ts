// Closing a proxied socket the way Toxiproxy's Go code does. Go's Close() is a full close (it does
// not relay half-closes), and after SO_LINGER 0 it is an RST; reset_peer relies on the latter.
import type { Socket } from 'node:net';

const lingerZero = new WeakSet<Socket>();

/** Go's SetLinger(0): from now on closing this socket sends an RST instead of a FIN. */
export function setLingerZero(socket: Socket): void {
  lingerZero.add(socket);
}

function reset(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}

/** Close after the last write, as a Go writer does when its io.Copy ends: FIN, or RST under linger 0. */
export function closeAfterWrites(socket: Socket): void {
  if (socket.destroyed) return;
  if (lingerZero.has(socket)) {
    if (socket.writableLength > 0) socket.once('drain', () => reset(socket));
    else reset(socket);
    return;
  }
  if (socket.writableFinished) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end();
}

/** Close at once, dropping anything queued (a proxy being disabled). */
export function closeNow(socket: Socket): void {
  if (lingerZero.has(socket)) reset(socket);
  else socket.destroy();
}
