import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { allowAnyOrigin } from '../../lib/cors.ts';
import { NODEINFO_VERSIONS, nodeInfoSchema } from './nodeinfo.service.ts';

/** What the server calls itself in its NodeInfo (the Mastodon instance answer's title). */
const NODE_NAME = 'Pipit';

/** XML's five escapes, for the URL in host-meta's attribute. */
const xmlEscape = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * How other servers and apps discover this one: host-meta (RFC 6415: where WebFinger answers, XRD and
 * JRD) and NodeInfo (its discovery document and the 2.0 and 2.1 documents: software, usage). Public
 * and the same for everyone, so any origin may read them (web apps such as Phanpy and Elk fetch them
 * from the browser) and shared caches may keep them a while.
 */
export async function nodeInfoRoutes(app: FastifyInstance, { config }: { config: Config }) {
  allowAnyOrigin(app, []);
  const { nodeinfo } = app.services;
  const base = config.publicUrl;
  const webfinger = `${base}/.well-known/webfinger?resource={uri}`;

  app.get('/.well-known/host-meta', async (_request, reply) =>
    reply
      .type('application/xrd+xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n  <Link rel="lrdd" template="${xmlEscape(webfinger)}"/>\n</XRD>\n`,
      ),
  );

  app.get('/.well-known/host-meta.json', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send({ links: [{ rel: 'lrdd', template: webfinger }] }),
  );

  app.get('/.well-known/nodeinfo', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send({ links: NODEINFO_VERSIONS.map((v) => ({ rel: nodeInfoSchema(v), href: `${base}/nodeinfo/${v}` })) }),
  );

  for (const version of NODEINFO_VERSIONS) {
    app.get(`/nodeinfo/${version}`, async (_request, reply) =>
      reply
        .type(`application/json; profile="${nodeInfoSchema(version)}#"`)
        .header('Cache-Control', 'public, max-age=1800')
        .send(await nodeinfo.document(version, NODE_NAME)),
    );
  }
}
