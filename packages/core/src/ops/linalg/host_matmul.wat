;; The cpu backend's small float32 matmul (host_matmul.ts) as WebAssembly: the same float64 partial sums over the same
;; blocks of 48 terms of the inner dimension, each added into the float32 result in the same order as tfjs's cpu
;; BatchMatMul kernel, so the values are bit-identical to it and to the JavaScript loop. WebAssembly runs at compiled
;; speed from its first call (V8's Liftoff compiles the module at load), where the JavaScript loop runs interpreted until
;; TurboFan's compile of it lands, ~10 ms into a process: a process's first calls (issue 31's cold window).
;; Assembled by scripts/wasm/build-host-kernels.js (wabt) into host_matmul_wasm.ts; a test checks the two agree.
(module
  (memory (export "memory") 1)
  ;; out[bi, i, j] = sum_p a[bi % batchA][i, p] * b[bi % batchB][p, j]; a, b and out are element offsets into memory
  ;; (float32). Element (i, p) of a matrix of a sits at i * aRow + p * aInner; (p, j) of b at p * bInner + j * bCol.
  (func (export "matmul")
    (param $a i32) (param $b i32) (param $out i32)
    (param $batchA i32) (param $batchB i32) (param $batchOut i32)
    (param $M i32) (param $N i32) (param $K i32)
    (param $aRow i32) (param $aInner i32) (param $bInner i32) (param $bCol i32)
    (local $bi i32) (local $i i32) (local $j i32) (local $p0 i32) (local $p i32) (local $end i32)
    (local $a0 i32) (local $b0 i32) (local $o i32) (local $pa i32) (local $pb i32)
    (local $sum f64) (local $acc f32) (local $sum1 f64) (local $sum2 f64) (local $sum3 f64)
    (local $acc1 f32) (local $acc2 f32) (local $acc3 f32) (local $av f64) (local $pc i32) (local $bColB i32)
    ;; byte steps
    (local.set $aInner (i32.shl (local.get $aInner) (i32.const 2)))
    (local.set $bInner (i32.shl (local.get $bInner) (i32.const 2)))
    (local.set $o (i32.shl (local.get $out) (i32.const 2)))
    (local.set $bColB (i32.shl (local.get $bCol) (i32.const 2)))
    (block $doneB
      (loop $batch
        (br_if $doneB (i32.ge_u (local.get $bi) (local.get $batchOut)))
        (local.set $a0 (i32.add (local.get $a)
          (i32.mul (i32.rem_u (local.get $bi) (local.get $batchA)) (i32.mul (local.get $M) (local.get $K)))))
        (local.set $b0 (i32.add (local.get $b)
          (i32.mul (i32.rem_u (local.get $bi) (local.get $batchB)) (i32.mul (local.get $K) (local.get $N)))))
        (local.set $i (i32.const 0))
        (block $doneI
          (loop $rows
            (br_if $doneI (i32.ge_u (local.get $i) (local.get $M)))
            (local.set $j (i32.const 0))
            ;; Four columns at a time: one load of a[i, p] serves four independent sums (each still in p order),
            ;; about a third of the instructions per multiply-add of one column at a time.
            (block $doneJ4
              (loop $cols4
                (br_if $doneJ4 (i32.gt_u (i32.add (local.get $j) (i32.const 4)) (local.get $N)))
                (local.set $acc (f32.const 0))
                (local.set $acc1 (f32.const 0))
                (local.set $acc2 (f32.const 0))
                (local.set $acc3 (f32.const 0))
                (local.set $p0 (i32.const 0))
                (block $doneQ0
                  (loop $blocks4
                    (br_if $doneQ0 (i32.ge_u (local.get $p0) (local.get $K)))
                    (local.set $end (select (i32.add (local.get $p0) (i32.const 48)) (local.get $K)
                      (i32.lt_u (i32.add (local.get $p0) (i32.const 48)) (local.get $K))))
                    (local.set $pa (i32.shl (i32.add (local.get $a0)
                      (i32.add (i32.mul (local.get $i) (local.get $aRow)) (i32.mul (local.get $p0) (i32.shr_u (local.get $aInner) (i32.const 2)))))
                      (i32.const 2)))
                    (local.set $pb (i32.shl (i32.add (local.get $b0)
                      (i32.add (i32.mul (local.get $j) (local.get $bCol)) (i32.mul (local.get $p0) (i32.shr_u (local.get $bInner) (i32.const 2)))))
                      (i32.const 2)))
                    (local.set $sum (f64.const 0))
                    (local.set $sum1 (f64.const 0))
                    (local.set $sum2 (f64.const 0))
                    (local.set $sum3 (f64.const 0))
                    (local.set $p (local.get $p0))
                    (block $doneQ
                      (loop $inner4
                        (br_if $doneQ (i32.ge_u (local.get $p) (local.get $end)))
                        (local.set $av (f64.promote_f32 (f32.load (local.get $pa))))
                        (local.set $pc (local.get $pb))
                        (local.set $sum (f64.add (local.get $sum) (f64.mul (local.get $av) (f64.promote_f32 (f32.load (local.get $pc))))))
                        (local.set $pc (i32.add (local.get $pc) (local.get $bColB)))
                        (local.set $sum1 (f64.add (local.get $sum1) (f64.mul (local.get $av) (f64.promote_f32 (f32.load (local.get $pc))))))
                        (local.set $pc (i32.add (local.get $pc) (local.get $bColB)))
                        (local.set $sum2 (f64.add (local.get $sum2) (f64.mul (local.get $av) (f64.promote_f32 (f32.load (local.get $pc))))))
                        (local.set $pc (i32.add (local.get $pc) (local.get $bColB)))
                        (local.set $sum3 (f64.add (local.get $sum3) (f64.mul (local.get $av) (f64.promote_f32 (f32.load (local.get $pc))))))
                        (local.set $pa (i32.add (local.get $pa) (local.get $aInner)))
                        (local.set $pb (i32.add (local.get $pb) (local.get $bInner)))
                        (local.set $p (i32.add (local.get $p) (i32.const 1)))
                        (br $inner4)))
                    (local.set $acc (f32.demote_f64 (f64.add (f64.promote_f32 (local.get $acc)) (local.get $sum))))
                    (local.set $acc1 (f32.demote_f64 (f64.add (f64.promote_f32 (local.get $acc1)) (local.get $sum1))))
                    (local.set $acc2 (f32.demote_f64 (f64.add (f64.promote_f32 (local.get $acc2)) (local.get $sum2))))
                    (local.set $acc3 (f32.demote_f64 (f64.add (f64.promote_f32 (local.get $acc3)) (local.get $sum3))))
                    (local.set $p0 (i32.add (local.get $p0) (i32.const 48)))
                    (br $blocks4)))
                (f32.store (local.get $o) (local.get $acc))
                (f32.store offset=4 (local.get $o) (local.get $acc1))
                (f32.store offset=8 (local.get $o) (local.get $acc2))
                (f32.store offset=12 (local.get $o) (local.get $acc3))
                (local.set $o (i32.add (local.get $o) (i32.const 16)))
                (local.set $j (i32.add (local.get $j) (i32.const 4)))
                (br $cols4)))
            ;; The last N % 4 columns one at a time.
            (block $doneJ
              (loop $cols
                (br_if $doneJ (i32.ge_u (local.get $j) (local.get $N)))
                (local.set $acc (f32.const 0))
                (local.set $p0 (i32.const 0))
                (block $doneP0
                  (loop $blocks
                    (br_if $doneP0 (i32.ge_u (local.get $p0) (local.get $K)))
                    (local.set $end (select (i32.add (local.get $p0) (i32.const 48)) (local.get $K)
                      (i32.lt_u (i32.add (local.get $p0) (i32.const 48)) (local.get $K))))
                    ;; byte addresses of a[i, p0] and b[p0, j]
                    (local.set $pa (i32.shl (i32.add (local.get $a0)
                      (i32.add (i32.mul (local.get $i) (local.get $aRow)) (i32.mul (local.get $p0) (i32.shr_u (local.get $aInner) (i32.const 2)))))
                      (i32.const 2)))
                    (local.set $pb (i32.shl (i32.add (local.get $b0)
                      (i32.add (i32.mul (local.get $j) (local.get $bCol)) (i32.mul (local.get $p0) (i32.shr_u (local.get $bInner) (i32.const 2)))))
                      (i32.const 2)))
                    (local.set $sum (f64.const 0))
                    (local.set $p (local.get $p0))
                    (block $doneP
                      (loop $inner
                        (br_if $doneP (i32.ge_u (local.get $p) (local.get $end)))
                        (local.set $sum (f64.add (local.get $sum)
                          (f64.mul (f64.promote_f32 (f32.load (local.get $pa))) (f64.promote_f32 (f32.load (local.get $pb))))))
                        (local.set $pa (i32.add (local.get $pa) (local.get $aInner)))
                        (local.set $pb (i32.add (local.get $pb) (local.get $bInner)))
                        (local.set $p (i32.add (local.get $p) (i32.const 1)))
                        (br $inner)))
                    (local.set $acc (f32.demote_f64 (f64.add (f64.promote_f32 (local.get $acc)) (local.get $sum))))
                    (local.set $p0 (i32.add (local.get $p0) (i32.const 48)))
                    (br $blocks)))
                (f32.store (local.get $o) (local.get $acc))
                (local.set $o (i32.add (local.get $o) (i32.const 4)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $cols)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rows)))
        (local.set $bi (i32.add (local.get $bi) (i32.const 1)))
        (br $batch)))))
