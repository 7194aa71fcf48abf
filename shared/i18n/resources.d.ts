export type Language = 'ar' | 'en';
export type Namespace =
  | 'common'
  | 'validation'
  | 'errors'
  | 'entities'
  | 'ui'
  | 'auth'
  | 'layout'
  | 'menu'
  | 'dashboard'
  | 'settings'
  | 'clients'
  | 'legal'
  | 'notifications'
  | 'tasks'
  | 'chat'
  | 'server-http'
  | 'server-ws'
  | 'server-auth'
  | 'server-people'
  | 'server-import'
  | 'server-system'
  | 'server-clients'
  | 'server-legal'
  | 'server-notifications'
  | 'server-dashboard'
  | 'server-tasks'
  | 'server-documents'
  | 'server-chat';
/** Nested translation tree of one namespace. */
export interface ResourceTree {
  [key: string]: string | ResourceTree;
}
export declare const resources: Record<Language, Record<Namespace, ResourceTree>>;
export declare const LANGUAGES: Language[];
export declare const NAMESPACES: Namespace[];
/** A plural form's key without its form (`passwordTooShort_one` → `passwordTooShort`), as callers name it. */
type PluralBase<K> = K extends `${infer B}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? B : K;
/** Top-level keys of the server's auth messages (typed so a misspelt key fails to compile). */
export type ServerAuthKey = PluralBase<
  Exclude<keyof typeof import('./src/locales/en/server-auth.json'), 'labels'>
>;
