import type { NotificationType, PushPayload } from '@pipit/contract';
import type { Language } from '../../lib/languages.ts';
import type { PushedNotification } from './push.repository.ts';

/** The longest body pushed (Mastodon's: 140 characters, then an ellipsis). */
export const PUSH_BODY_MAX = 140;

/** Who did what, in each language Pipit writes in (lib/languages.ts): the notification's title. */
const TITLES: Record<Language, Record<NotificationType, (name: string) => string>> = {
  en: {
    reply: (name) => `${name} replied to you`,
    mention: (name) => `${name} mentioned you`,
    follow: (name) => `${name} followed you`,
    follow_request: (name) => `${name} asked to follow you`,
    like: (name) => `${name} liked your post`,
    repost: (name) => `${name} reposted your post`,
    quote: (name) => `${name} quoted your post`,
    poll: (name) => `A poll by ${name} has ended`,
    update: (name) => `${name} edited a post`,
  },
  es: {
    reply: (name) => `${name} te respondió`,
    mention: (name) => `${name} te mencionó`,
    follow: (name) => `${name} empezó a seguirte`,
    follow_request: (name) => `${name} pidió seguirte`,
    like: (name) => `A ${name} le gustó tu publicación`,
    repost: (name) => `${name} reposteó tu publicación`,
    quote: (name) => `${name} citó tu publicación`,
    poll: (name) => `Terminó una encuesta de ${name}`,
    update: (name) => `${name} editó una publicación`,
  },
  ar: {
    reply: (name) => `ردّ ${name} عليك`,
    mention: (name) => `أشار إليك ${name}`,
    follow: (name) => `تابعك ${name}`,
    follow_request: (name) => `طلب ${name} متابعتك`,
    like: (name) => `أُعجب ${name} بمنشورك`,
    repost: (name) => `أعاد ${name} نشر منشورك`,
    quote: (name) => `اقتبس ${name} منشورك`,
    poll: (name) => `انتهى استطلاع ${name}`,
    update: (name) => `عدّل ${name} منشورًا`,
  },
};

const cut = (text: string) => {
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length > PUSH_BODY_MAX ? `${plain.slice(0, PUSH_BODY_MAX - 1)}…` : plain;
};

/**
 * What is pushed of a notification, as Mastodon's Web::NotificationSerializer has it: a title naming
 * who did what, and a body — the post's content warning when it has one (never the text it hides), else
 * its text; for a follow, the follower's bio — cut at 140 characters. The title is in the subscriber's
 * `language` (English when not given); what people wrote is sent as they wrote it. `type` is the subscriber's word
 * for the kind (Mastodon's for an app).
 */
export function pushPayload(
  n: PushedNotification,
  publicUrl: string,
  extra: { type: string; accessToken?: string | null; language?: Language },
): PushPayload {
  const language = extra.language ?? 'en';
  const name = n.actorName.trim() || n.actorUsername;
  const warning = n.postSpoilerText?.trim() ?? '';
  const body = n.postId === null ? n.actorBio : warning !== '' ? warning : (n.postText ?? '');
  const image = n.actorImage ?? '/images/placeholder.png';
  return {
    notification_id: String(n.id),
    notification_type: extra.type,
    title: TITLES[language][n.type](name),
    body: cut(body),
    icon: /^https?:\/\//.test(image) ? image : `${publicUrl}${image}`,
    preferred_locale: language,
    ...(extra.accessToken ? { access_token: extra.accessToken } : {}),
    // Where a click leads in the web app: the post, or the person's profile.
    url: n.postId === null ? `${publicUrl}/users/${n.actorId}` : `${publicUrl}/posts/${n.postId}`,
  };
}
