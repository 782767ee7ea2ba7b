// Compiled by `tsc --noEmit --strict` in scripts/test-web.sh: uses the
// package's TypeScript types (web/pkg/chimera_wasm.d.ts) the way a page
// would, so that a wrong or missing type fails the test. Never run.
import init, {
  ChimeraGame, listVariants, builtinSource,
  type Target, type TargetKind, type MoveDetail, type Cell, type HandPiece,
  type PieceType, type GameResult, type SearchInfo, type VariantInfo, type GameEnd,
} from "../pkg/chimera_wasm.js";

export async function demo(): Promise<string> {
  await init();
  const variants: VariantInfo[] = listVariants();
  const names: string[] = variants.map((v) => `${v.name}: ${v.description}`);
  const text: string = builtinSource(names[0]);
  const g: ChimeraGame = ChimeraGame.fromBuiltin("mightylion");
  const user: ChimeraGame = ChimeraGame.fromDefinition(text, "toml");
  const ini: ChimeraGame = ChimeraGame.fromDefinition("[x:chess]", "ini", "x");
  const size: number = g.width * g.height;
  const hands: boolean = g.hasHands;
  const side: "white" | "black" = g.sideToMove();
  const moves: string[] = g.legalMoves();
  const details: MoveDetail[] = g.moveDetails();
  const firstFrom: string | null = details[0].from;
  const victim: string | null = details[0].victim;
  const kinds: TargetKind[] = g.targets("d4").flatMap((t: Target) => t.kinds);
  const second: Target[] = g.secondLegTargets("d4", "e5");
  const drops: Target[] = g.dropTargets("P");
  const played: MoveDetail = g.play(moves[0]);
  const back: string | undefined = g.undo();
  const result: GameResult | null = g.result();
  const winner: "white" | "black" | null = result ? result.winner : null;
  // @ts-expect-error: a score is one of three strings
  const wrong: GameResult = { winner: null, score: "2-0", reason: "" };
  const cells: Cell[] = g.board();
  const piece: string | null = cells[0].piece;
  const inHand: HandPiece[] = g.hands();
  const types: PieceType[] = g.pieceTypes();
  const info: SearchInfo = g.think(100);
  const deep: SearchInfo = g.think(100, 3);
  g.setFen(g.startFen());
  g.reset();
  const check: boolean = g.inCheck();
  const hist: string[] = g.history();
  const san: string[] = g.sanHistory();
  const one: string = g.sanMove(moves[0]);
  const pushed: MoveDetail = g.pushSan(one);
  const pgnText: string = g.pgn();
  g.loadPgn(pgnText);
  const end: GameEnd | null = g.gameEnd();
  const endResult: "1-0" | "0-1" | "1/2-1/2" | null = end ? end.result : null;
  const claim: boolean = end ? end.claimable : false;
  const diagram: ChimeraGame = g.pieceDiagram("L");
  const diagramAt: ChimeraGame = g.pieceDiagram("L", "a1");
  diagram.free();
  diagramAt.free();
  user.free();
  ini.free();
  return [size, hands, side, firstFrom, victim, kinds.length, second.length, drops.length, played.uci, back,
    winner, piece, inHand.length, types[0].betza, info.best, info.pv.join(" "), deep.nodes, check, hist.length,
    info.elapsedMs, g.fen(), g.variantName, san.length, pushed.uci, endResult, claim].join(",");
}
