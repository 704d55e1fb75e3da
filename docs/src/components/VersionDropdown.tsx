import React, { useEffect, useState } from 'react';
import { useTranslation } from '../site/translation';
import { siteConfig, storageKeys, type DocVersion } from '../site/site-config';
import { Dropdown } from './Dropdown';

const latest = siteConfig.versions.find((version) => version.status === 'latest') ?? siteConfig.versions[0]!;

function readStoredVersion(): DocVersion {
  try {
    const id = window.localStorage.getItem(storageKeys.version);
    return siteConfig.versions.find((version) => version.id === id) ?? latest;
  } catch {
    return latest;
  }
}

/** The chosen documentation version, remembered in local storage. */
export function useDocVersion(): [DocVersion, (version: DocVersion) => void] {
  const [version, setVersion] = useState<DocVersion>(latest);
  useEffect(() => setVersion(readStoredVersion()), []);
  const choose = (next: DocVersion) => {
    setVersion(next);
    try {
      window.localStorage.setItem(storageKeys.version, next.id);
    } catch {
      // Private browsing without storage: the choice lasts for this page only.
    }
    window.dispatchEvent(new CustomEvent('sesame-docs:version', { detail: next.id }));
  };
  useEffect(() => {
    const onChange = () => setVersion(readStoredVersion());
    window.addEventListener('sesame-docs:version', onChange);
    return () => window.removeEventListener('sesame-docs:version', onChange);
  }, []);
  return [version, choose];
}

export function VersionDropdown() {
  const { t } = useTranslation();
  const [version, choose] = useDocVersion();
  return (
    <Dropdown
      className="version-dropdown"
      title={t('versions.title')}
      label={<span data-version={version.id}>{version.label}</span>}
    >
      {(close) =>
        siteConfig.versions.map((candidate) => (
          <li key={candidate.id} role="none">
            <button
              type="button"
              role="menuitemradio"
              aria-checked={candidate.id === version.id}
              data-version={candidate.id}
              className={candidate.id === version.id ? 'dropdown-item dropdown-item--active' : 'dropdown-item'}
              onClick={() => {
                choose(candidate);
                close();
              }}
            >
              {candidate.label}{' '}
              <span className={`version-status version-status--${candidate.status}`}>{t(`versions.${candidate.status}`)}</span>
            </button>
          </li>
        ))
      }
    </Dropdown>
  );
}

/** Warns readers who chose a version other than the latest one. */
export function VersionBanner() {
  const { t } = useTranslation();
  const [version, choose] = useDocVersion();
  if (version.status === 'latest') return null;
  return (
    <div className={`version-banner version-banner--${version.status}`} role="note">
      {t(`versions.banner.${version.status}`, { version: version.label })}{' '}
      <button type="button" className="link-button" onClick={() => choose(latest)}>
        {t('versions.backToLatest', { version: latest.label })}
      </button>
    </div>
  );
}
