// Until the shell mounts the detail drawer's provider, the record pages carry their own so that a
// row click has somewhere to go. Removed once the shell provides it.
import type { ReactNode } from 'react';
import { DrawerProvider } from '@dealscout/shared/ui';

export function RecordsDrawerScope({ children }: { children: ReactNode }) {
  return <DrawerProvider>{children}</DrawerProvider>;
}
