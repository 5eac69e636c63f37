// The built-in columns of the companies and contacts tables (custom fields follow, one column each).
// The name columns are pinned: they stay in place when the table scrolls sideways.
import { Link } from '@fluentui/react-components';
import type { CompanyDto, ContactDto } from '@dealscout/shared/contracts';
import { formatDate, personName, websiteHref, type RecordColumn } from '@dealscout/shared/ui';

const ownerText = (o: CompanyDto['owner']) => (o ? personName(o) || o.email : '');

export const COMPANY_COLUMNS: readonly RecordColumn<CompanyDto>[] = [
  { key: 'name', label: 'Name', sortKey: 'name', width: 220, pinned: true, text: (r) => r.name },
  {
    key: 'website',
    label: 'Website',
    sortKey: 'website',
    width: 200,
    text: (r) => r.website,
    render: (r) =>
      r.website ? (
        <Link href={websiteHref(r.website)} target="_blank" rel="noopener noreferrer" data-testid="company-website-link">
          {r.website}
        </Link>
      ) : null,
  },
  { key: 'owner', label: 'Owner', sortKey: 'owner', width: 170, text: (r) => ownerText(r.owner) },
  { key: 'keyContact', label: 'Key contact', sortKey: 'keyContact', width: 180, text: (r) => personName(r.keyContact) },
  { key: 'createdAt', label: 'Created', sortKey: 'createdAt', width: 130, text: (r) => formatDate(r.createdAt) },
];

export const CONTACT_COLUMNS: readonly RecordColumn<ContactDto>[] = [
  { key: 'firstName', label: 'First name', sortKey: 'firstName', width: 150, pinned: true, text: (r) => r.firstName },
  { key: 'lastName', label: 'Last name', sortKey: 'lastName', width: 150, pinned: true, text: (r) => r.lastName },
  {
    key: 'email',
    label: 'Email',
    sortKey: 'email',
    width: 230,
    text: (r) => r.email,
    render: (r) =>
      r.email ? (
        <Link href={`mailto:${r.email}`} data-testid="contact-email-link">
          {r.email}
        </Link>
      ) : null,
  },
  { key: 'primaryCompany', label: 'Primary company', sortKey: 'primaryCompany', width: 200, text: (r) => r.primaryCompany?.name ?? '' },
  { key: 'owner', label: 'Owner', sortKey: 'owner', width: 170, text: (r) => ownerText(r.owner) },
  { key: 'createdAt', label: 'Created', sortKey: 'createdAt', width: 130, text: (r) => formatDate(r.createdAt) },
];
