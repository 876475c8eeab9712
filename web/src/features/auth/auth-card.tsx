import { Card, H2 } from '@blueprintjs/core';
import { type ReactNode, useEffect } from 'react';

/** The centred card every public authentication screen sits in. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Nuage`;
  }, [title]);
  return (
    <div className="nu-auth">
      <Card className="nu-auth__card" elevation={2}>
        <H2 className="nu-auth__title">{title}</H2>
        {children}
      </Card>
      {footer && <div className="nu-auth__footer">{footer}</div>}
    </div>
  );
}
