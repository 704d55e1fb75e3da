import type { Environment, UserErasure } from '@sesame/contracts';
import { erasureEmailHash } from '@sesame/platform';
import type { ReadModelDocument } from '@sesame/platform';
import type { FeedEntry } from './feed-entry';

/**
 * A person erased from the feed (a privacy request), as the feed keeps it to pseudonymise the
 * entries it writes after the erasure: an id, a pseudonym and keyed hashes of the email, no
 * personal value.
 */
export interface ErasedSubject extends ReadModelDocument {
  /** The user id. */
  _id: string;
  environment: Environment;
  pseudonym: string;
  email_hashes: string[];
}

export const erasedSubjectOf = (environment: Environment, erasure: UserErasure): ErasedSubject => ({
  _id: erasure.user_id,
  environment,
  pseudonym: erasure.pseudonym,
  email_hashes: erasure.email_hashes,
});

/** What stands where the person's email was: an address that cannot receive mail (RFC 2606). */
export const pseudonymEmail = (subject: Pick<ErasedSubject, 'pseudonym'>) => `${subject.pseudonym}@erased.invalid`;

/** Fields holding an email or an identifier made of one (an IdP subject, a SCIM user name): the pseudonym's email. */
const emailFields = new Set(['email', 'proven_email', 'name_id', 'idp_id', 'userName', 'user_name']);
/** Fields holding other personal values (user profile, address, phones, metadata; SCIM names): emptied, shape kept. */
const personalFields = new Set([
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'picture',
  'website',
  'birthdate',
  'gender',
  'phone_number',
  'phone_numbers',
  'address',
  'metadata',
  'meta_data',
  'givenName',
  'familyName',
  'middleName',
  'displayName',
  'nickName',
  'phoneNumbers',
  'addresses',
  'emails',
  'photos',
  'name.givenName',
  'name.familyName',
  'name.formatted',
]);
/** Actors whose address and user agent are the person's own browser when the event is about the person. */
const browserActors = new Set(['user', 'sso_connection']);
const emailsInText = /[^\s'"<>@,;:()[\]]+@[^\s'"<>@,;:()[\]]+/g;

type Json = unknown;

/** The person's emails a text holds (by their keyed hashes: the erasure never names them). */
const matchingEmails = (text: string, subject: ErasedSubject): string[] =>
  (text.match(emailsInText) ?? []).filter((email) => subject.email_hashes.includes(erasureEmailHash(subject._id, email)));

const someText = (value: Json, test: (text: string) => boolean): boolean => {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => someText(item, test));
  if (value !== null && typeof value === 'object') return Object.values(value).some((item) => someText(item, test));
  return false;
};

/** Whether a text names the person: their id, or one of their emails. */
const names = (text: string, subject: ErasedSubject) => text === subject._id || matchingEmails(text, subject).length > 0;

/** A personal value emptied with its shape kept: null for a scalar, [] for a list, each field emptied for an object. */
const emptied = (value: Json): Json => {
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.keys(value).map((key) => [key, key === 'metadata' ? {} : null]));
  return null;
};

const scrubbed = (value: Json, field: string | null, subject: ErasedSubject): Json => {
  if (field !== null && emailFields.has(field) && typeof value === 'string') return pseudonymEmail(subject);
  if (field !== null && personalFields.has(field)) return field === 'metadata' || field === 'meta_data' ? {} : emptied(value);
  if (typeof value === 'string')
    return matchingEmails(value, subject).reduce((text, email) => text.split(email).join(pseudonymEmail(subject)), value);
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, null, subject));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, key, subject)]));
  return value;
};

/**
 * The entry with the person's personal values pseudonymised, if it is about the person or caused
 * by them (else as it is). An entry whose data names the person (their id anywhere, or one of
 * their emails): every email and email-made identifier becomes the pseudonym's email, the other
 * personal fields are emptied, the person's emails inside texts are replaced. The actor's client
 * address and user agent are dropped when the actor is the person, or a browser sign-in
 * (`browserActors`) of an entry about them. Code, ids, organization and time stay: the audit record
 * that something happened. Applying it twice changes nothing more.
 */
export function pseudonymised(entry: FeedEntry, subject: ErasedSubject): FeedEntry {
  if (entry.environment !== subject.environment) return entry;
  const about = someText(entry.data, (text) => names(text, subject));
  const byPerson = entry.actor !== null && names(entry.actor.id, subject);
  if (!about && !byPerson) return entry;
  const actor =
    entry.actor && (byPerson || browserActors.has(entry.actor.type))
      ? { type: entry.actor.type, id: String(scrubbed(entry.actor.id, null, subject)) }
      : entry.actor;
  return { ...entry, data: (about ? scrubbed(entry.data, null, subject) : entry.data) as FeedEntry['data'], actor };
}

/** An entry as the feed writes it, after every erasure already known in its environment. */
export const afterErasures = (entry: FeedEntry, subjects: readonly ErasedSubject[]): FeedEntry =>
  subjects.reduce((current, subject) => pseudonymised(current, subject), entry);

/** The entries an erasure rewrites: those it changes, pseudonymised. */
export const rewrittenBy = (subject: ErasedSubject, entries: readonly FeedEntry[]): FeedEntry[] =>
  entries.flatMap((entry) => {
    const after = pseudonymised(entry, subject);
    return after === entry || JSON.stringify(after) === JSON.stringify(entry) ? [] : [after];
  });
