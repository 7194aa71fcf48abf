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
  | 'settings';
/** Nested translation tree of one namespace. */
export interface ResourceTree {
  [key: string]: string | ResourceTree;
}
export declare const resources: Record<Language, Record<Namespace, ResourceTree>>;
export declare const LANGUAGES: Language[];
export declare const NAMESPACES: Namespace[];
