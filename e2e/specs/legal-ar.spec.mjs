// The legal department in Arabic: a lawsuit through its form (court → circuit → judge, fee), a
// hearing from its page, a postponement seen in the chain and the calendar, an attachment in a
// group with its PDF previewed, two payments with the fee figures, axe on the new screens (see
// lib/legal.mjs).
import { legalSpec } from '../lib/legal.mjs';

legalSpec('ar');
