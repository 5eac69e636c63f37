import type { ReactNode } from 'react';
import { useHref, useLinkClickHandler } from 'react-router';
import { Link } from '@fluentui/react-components';

/** A Fluent link that navigates with the router (no page reload). */
export function AppLink({ to, children, 'data-testid': testId }: { to: string; children: ReactNode; 'data-testid'?: string }) {
  const href = useHref(to);
  const handle = useLinkClickHandler<HTMLAnchorElement>(to);
  return (
    <Link as="a" href={href} onClick={handle} data-testid={testId}>
      {children}
    </Link>
  );
}
