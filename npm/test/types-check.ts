// Compiled (not run) by scripts/test-npm.sh with tsc --strict: the
// package's types as a program would use them.
import { Board, ChimeraGame, Notation, readGamePGN, startingFen, validateFen, variants } from "../index.js";
import type { GameEnd, MoveDetail, SearchInfo, Target } from "../index.js";

const b: Board = new Board("xiangqi", startingFen("xiangqi"));
const moves: string = b.legalMoves();
const n: number = b.numberLegalMoves();
b.push(moves.split(" ")[0]);
const san: string = b.sanMove(b.legalMoves().split(" ")[0], Notation.XIANGQI_WXF);
const over: boolean = b.isGameOver(true);
const end: GameEnd | null = b.gameEnd(true);
const result: "1-0" | "0-1" | "1/2-1/2" | "*" = b.result();
const targets: Target[] = b.targets("b1");
const info: SearchInfo = b.bestMove(100);
const code: number = validateFen(b.fen(), "xiangqi");
const g = readGamePGN("1. e4 *");
const main: string = g.mainlineMoves();
const names: string = variants();
const game = ChimeraGame.fromBuiltin("chess");
const d: MoveDetail = game.pushSan("e4");
const history: string[] = game.sanHistory();
const e: GameEnd | null = game.gameEnd();
export { n, san, over, end, result, targets, info, code, main, names, d, history, e };
