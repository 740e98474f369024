// Preloaded (`node --require`) into the command-line tools the documents test runs: every TCP connection to
// anything but this machine is refused before it starts, and reported on stderr with the marker below, so
// that a tool trying to reach the internet (analytics, update checks) fails the test instead of leaving it.
const net = require('node:net');

const MARKER = '[loopback only] refused a connection to';
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // net.connect() hands over its arguments already normalized: [[options, callback]].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : undefined;
  const isPipe = options ? typeof options.path === 'string' : typeof first === 'string';
  const host = options ? options.host : typeof first === 'number' ? args[1] : undefined;
  const port = options ? options.port : first;
  const target = typeof host === 'string' && host !== '' ? host : 'localhost';
  if (!isPipe && !LOOPBACK.test(target)) {
    process.stderr.write(`${MARKER} ${target}:${String(port)}\n`);
    const error = new Error(`${MARKER} ${target}:${String(port)} (the test allows loopback only)`);
    error.code = 'ECONNREFUSED';
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};

module.exports = { MARKER };
