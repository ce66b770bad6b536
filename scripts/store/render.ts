/** Renders the store listing (scripts/store/listing.ts) as the texts a store submission and PRIVACY.md need. */
import type { StoreListing } from './listing.js';

export function renderPrivacy(listing: StoreListing): string {
  const { title, intro, sections } = listing.privacy;
  return [`## ${title}`, '', intro, '', ...sections.flatMap((s) => [`### ${s.heading}`, '', ...s.items.map((i) => `- ${i}`), ''])].join(
    '\n',
  );
}

export function renderListing(listing: StoreListing): string {
  return [
    `# ${listing.name}`,
    '',
    `Summary: ${listing.summary}`,
    '',
    '## Description',
    '',
    ...listing.description.flatMap((p) => [p, '']),
    '## Single purpose',
    '',
    listing.singlePurpose,
    '',
    '## Permissions',
    '',
    ...Object.entries(listing.permissions).map(([permission, why]) => `- \`${permission}\`: ${why}`),
    '',
    renderPrivacy(listing),
  ].join('\n');
}

/** PRIVACY.md: the privacy statement in every language, English first. */
export function renderPrivacyFile(listings: StoreListing[]): string {
  const head = [
    '# Privacy',
    '',
    'This file is generated from `scripts/store/listing.ts` (the store listing uses the same text); edit it there and run `npm run package`.',
    '',
  ];
  return [...head, ...listings.map(renderPrivacy)].join('\n').replace(/\n+$/, '\n');
}
