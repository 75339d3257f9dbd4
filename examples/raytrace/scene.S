/* scene.S — the XBVH blob made at build time by `xphmg-bvh --procedural` (see
 * CMakeLists.txt), in .data because xphmg_bvh_relocate() rewrites its TriRange bases. The
 * blob's directory is on the assembler's include path (-Wa,-I). */
    .section .data.scene, "aw"
    .balign 64
    .globl scene_blob
scene_blob:
    .incbin "scene.xbvh"
    .globl scene_blob_end
scene_blob_end:
