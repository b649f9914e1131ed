// One string catalogue per language (i18n/zh.json, i18n/en.json); Chinese by default, English switchable.
// t(KEY, {name: value}) fills {name} placeholders; tests/web/test_catalogues.py keeps both in step.

export const LANGS = ["zh", "en"];
const catalogues = {};

export async function loadCatalogues() {
  await Promise.all(
    LANGS.map(async (lang) => {
      const response = await fetch(new URL(`i18n/${lang}.json`, import.meta.url));
      catalogues[lang] = await response.json();
    }),
  );
}

export function savedLang() {
  const lang = localStorage.getItem("scmj.lang");
  return LANGS.includes(lang) ? lang : "zh";
}

/** A translator for one language: t(key, params); t.lang is the language. */
export function translator(lang) {
  const table = catalogues[lang] || {};
  const fallback = catalogues.zh || {};
  const t = (key, params = {}) => {
    const text = table[key] ?? fallback[key];
    if (text === undefined) {
      console.warn(`missing string ${key}`);
      return key;
    }
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  };
  t.lang = lang;
  t.has = (key) => key in table || key in fallback;
  return t;
}
