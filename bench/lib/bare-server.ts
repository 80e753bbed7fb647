// The floor: a bare node:http server answering the recorded bytes (status, headers, body) of a
// real response, with nothing else in the way. Usage: node --import tsx bare-server.ts <file> <port>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Recorded {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

const [file, port] = process.argv.slice(2);
const recorded = JSON.parse(readFileSync(file as string, 'utf8')) as Recorded;
const body = Buffer.from(recorded.bodyBase64, 'base64');
const headers = { ...recorded.headers, 'content-length': String(body.length) };

createServer((_request, response) => {
  response.writeHead(recorded.status, headers);
  response.end(body);
}).listen(Number(port), '127.0.0.1', () => {
  process.stdout.write('ready\n');
});
