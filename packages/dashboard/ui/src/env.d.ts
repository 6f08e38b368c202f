// Vite bundles the stylesheet imported for its side effect.
declare module '*.css' {}
