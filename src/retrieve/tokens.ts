/**
 * Token counts for budgets, with OpenAI's cl100k_base encoding (js-tiktoken): a real tokenizer, so a
 * bundle of "3,500 tokens" is 3,500 tokens for the models agents run on, not a character estimate.
 * The encoding's tables take ~0.25 s to load, so they load on first use.
 */
import type { Tiktoken } from 'js-tiktoken/lite';

export const TOKENIZER = 'cl100k_base';
let encoder: Promise<Tiktoken> | null = null;

async function load(): Promise<Tiktoken> {
  const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
  return new Tiktoken(ranks.default);
}

export async function tokenCounter(): Promise<(text: string) => number> {
  encoder ??= load();
  const enc = await encoder;
  return (text: string) => enc.encode(text, 'all').length;
}
