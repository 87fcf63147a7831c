/**
 * One round of the transport yardstick (transport.ts) in a fresh process: its input on standard input (JSON), its
 * measure on standard output (JSON).
 */
import { readFileSync } from 'node:fs';
import { transportRound, type RoundInput } from './transport.ts';

const input = JSON.parse(readFileSync(0, 'utf8')) as RoundInput;
process.stdout.write(JSON.stringify(await transportRound(input)));
