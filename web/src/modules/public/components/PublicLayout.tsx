import { useEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import { PRODUCT_NAME, PUBLIC_TITLE } from '@dealscout/shared/domain';
import { BrandMark } from '../../../components/BrandMark';

const useStyles = makeStyles({
  root: {
    minHeight: '100vh',
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 5fr) minmax(0, 7fr)',
    backgroundColor: tokens.colorNeutralBackground2,
    '@media (max-width: 860px)': { gridTemplateColumns: '1fr' },
  },
  brand: {
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'space-between',
    padding: '40px 48px',
    color: tokens.colorNeutralForegroundOnBrand,
    backgroundImage: `linear-gradient(155deg, ${tokens.colorBrandBackground} 0%, ${tokens.colorBrandBackgroundPressed} 100%)`,
    '@media (max-width: 860px)': { padding: '20px 24px', gap: '8px' },
  },
  logo: { display: 'flex', alignItems: 'center', gap: '12px', fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  headline: {
    fontSize: '34px',
    lineHeight: '42px',
    fontWeight: tokens.fontWeightSemibold,
    maxWidth: '420px',
    '@media (max-width: 860px)': { fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500 },
  },
  sub: { opacity: 0.85, maxWidth: '420px', '@media (max-width: 860px)': { display: 'none' } },
  footer: { opacity: 0.7, '@media (max-width: 860px)': { display: 'none' } },
  main: { display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '40px 24px' },
  column: { width: '100%', maxWidth: '420px', display: 'flex', flexDirection: 'column', gap: '20px' },
});

/** The public layout (sign-in, reset, invitation, first run): page title 'Intelligent M&A Decisions'. */
export function PublicFrame({ children }: { children: ReactNode }) {
  const styles = useStyles();
  useEffect(() => {
    document.title = PUBLIC_TITLE;
  }, []);
  return (
    <div className={styles.root}>
      <aside className={styles.brand}>
        <div className={styles.logo}>
          <BrandMark size={36} inverted />
          <span>{PRODUCT_NAME}</span>
        </div>
        <div>
          <div className={styles.headline}>{PUBLIC_TITLE}</div>
          <Text as="p" block className={styles.sub}>
            Build lists of candidate companies, enrich them with AI, score them, and reach the right people with plays.
          </Text>
        </div>
        <Text size={200} className={styles.footer}>
          © {new Date().getFullYear()} {PRODUCT_NAME}
        </Text>
      </aside>
      <main className={styles.main}>
        <div className={styles.column}>{children}</div>
      </main>
    </div>
  );
}

export function PublicLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  );
}
