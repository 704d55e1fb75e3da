import 'i18next';

// Missing keys fall back to the key (never null), as configured with `returnNull: false`.
declare module 'i18next' {
  interface CustomTypeOptions {
    returnNull: false;
  }
}
