import { type BreadcrumbProps, Breadcrumbs, H1 } from '@blueprintjs/core';
import { type ReactNode, useEffect } from 'react';

/** One step of the breadcrumbs: `to` is an app path such as `/admin/users/list`. */
export interface Crumb {
  text: string;
  to?: string;
}

export interface PageFrameProps {
  title: string;
  breadcrumbs?: Crumb[];
  /** Buttons shown at the right of the title. */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of every screen: breadcrumbs, a level-one heading (also the
 * document title) and the page's actions.
 */
export function PageFrame({ title, breadcrumbs, actions, children }: PageFrameProps) {
  useEffect(() => {
    document.title = `${title} · Nuage`;
  }, [title]);
  const items: BreadcrumbProps[] = (breadcrumbs ?? []).map((c) => ({
    text: c.text,
    ...(c.to ? { href: `#${c.to}` } : {}),
  }));
  return (
    <div className="nu-page">
      {items.length > 0 && (
        <nav aria-label="Breadcrumbs" className="nu-page__crumbs">
          <Breadcrumbs items={items} />
        </nav>
      )}
      <header className="nu-page__header">
        <H1 className="nu-page__title">{title}</H1>
        {actions && <div className="nu-page__actions">{actions}</div>}
      </header>
      <div className="nu-page__body">{children}</div>
    </div>
  );
}
