import React from 'react';
import { AnnouncementBar } from './AnnouncementBar';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { Sidebar } from './Sidebar';
import { VersionBanner } from './VersionDropdown';

interface LayoutProps {
  pathname: string;
  /** Documentation pages show the sidebar; the landing page, the blog and the API reference do not. */
  sidebar?: boolean;
  className?: string;
  children: React.ReactNode;
}

export function Layout({ pathname, sidebar = false, className, children }: LayoutProps) {
  return (
    <div className={`site ${className ?? ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AnnouncementBar />
      <Navbar pathname={pathname} showSidebar={sidebar} />
      <div className={`main-wrapper ${sidebar ? 'main-wrapper--with-sidebar' : ''}`}>
        {sidebar ? (
          <aside className="sidebar-container">
            <Sidebar pathname={pathname} />
          </aside>
        ) : null}
        <main id="main" className="main">
          <VersionBanner />
          {children}
        </main>
      </div>
      <Footer />
    </div>
  );
}
