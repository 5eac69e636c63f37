import type { ReactNode } from 'react';
import type { FluentIcon } from '@fluentui/react-icons';
import { Text, Title3, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    textAlign: 'center',
    gap: '12px',
    maxWidth: '560px',
    margin: '48px auto',
    padding: '40px 32px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow4,
  },
  iconWrap: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '64px',
    height: '64px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
  },
  icon: { fontSize: '32px' },
  text: { color: tokens.colorNeutralForeground2 },
  actions: { display: 'flex', gap: '8px', marginTop: '8px', flexWrap: 'wrap', justifyContent: 'center' },
});

/** An honest empty state: says what the page is for and what is coming, never fake data. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  actions,
}: {
  icon: FluentIcon;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const styles = useStyles();
  return (
    <section className={styles.root} data-testid="empty-state">
      <div className={styles.iconWrap}>
        <Icon className={styles.icon} aria-hidden />
      </div>
      <Title3 as="h1" block>
        {title}
      </Title3>
      <Text as="p" block className={styles.text} data-testid="empty-state-text">
        {children}
      </Text>
      {actions && <div className={styles.actions}>{actions}</div>}
    </section>
  );
}
