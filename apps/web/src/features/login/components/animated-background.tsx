/**
 * Slowly drifting colour blobs over a faint grid, behind the login card. Pure CSS; the animation stops
 * under prefers-reduced-motion.
 */
export function AnimatedBackground() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden bg-sidebar">
      <div className="absolute -top-32 -left-24 size-[28rem] animate-drift rounded-full bg-brand/45 blur-3xl motion-reduce:animate-none" />
      <div className="absolute top-1/3 -right-32 size-[32rem] animate-drift rounded-full bg-cyan-500/30 blur-3xl [animation-delay:-7s] motion-reduce:animate-none" />
      <div className="absolute -bottom-40 left-1/4 size-[26rem] animate-drift rounded-full bg-indigo-500/35 blur-3xl [animation-delay:-14s] motion-reduce:animate-none" />
      <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(255_255_255/0.05)_1px,transparent_1px),linear-gradient(to_bottom,rgb(255_255_255/0.05)_1px,transparent_1px)] bg-[size:44px_44px] [mask-image:radial-gradient(ellipse_at_center,black_30%,transparent_75%)]" />
    </div>
  );
}
