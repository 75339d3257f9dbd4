# install.cmake — what `cmake --install` puts in place (the SDK), and the .deb CPack makes
# of it (docs/tools.md "SDK"):
#   bin/                      xphmg-sim, xphmg-objdump, xphmg-isa, xphmg-bvh, xphmg-gen
#   lib/                      libxphmg_isa.so (+ soname links), libxphmg_isa.a
#   include/xphmg/isa.h       the ISA library's public header
#   lib/pkgconfig/            xphmg-isa.pc (the library), xphmg-target.pc (kit paths)
#   lib/cmake/xphmg/          find_package(xphmg): xphmg::isa, xphmg::isa_static, and the
#                             guest helper xphmg_guest_executable()/xphmg_guest_test()
#   share/xphmg/              xphmg.xml, xphmg.xsd, README.md (the schema rules),
#                             profiles/, cmake/guest*.cmake, target/ (crt0.S, link.ld,
#                             syscalls.c, stdio_exit.c, include/ with the generated
#                             xphmg_insn.h and xphmg_csr.h)
#   share/man/man1, man3      man pages
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS xphmg-sim xphmg-objdump xphmg-isa xphmg-bvh xphmg-gen
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS xphmg_isa xphmg_isa_shared EXPORT xphmgTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/xphmg/isa.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xphmg)

set(XPHMG_DATADIR ${CMAKE_INSTALL_DATADIR}/xphmg)
install(FILES ${XPHMG_SPEC} ${XPHMG_XSD} ${CMAKE_SOURCE_DIR}/spec/README.md
        DESTINATION ${XPHMG_DATADIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/profiles/ DESTINATION ${XPHMG_DATADIR}/profiles)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/guest.cmake ${CMAKE_SOURCE_DIR}/cmake/guest-run.cmake
        DESTINATION ${XPHMG_DATADIR}/cmake)
install(FILES ${CMAKE_SOURCE_DIR}/target/crt0.S ${CMAKE_SOURCE_DIR}/target/link.ld
              ${CMAKE_SOURCE_DIR}/target/syscalls.c ${CMAKE_SOURCE_DIR}/target/stdio_exit.c
              ${CMAKE_SOURCE_DIR}/target/README.md
        DESTINATION ${XPHMG_DATADIR}/target)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/target/include/ DESTINATION ${XPHMG_DATADIR}/target/include)
install(FILES ${XPHMG_GUEST_HEADER} ${XPHMG_GUEST_INCLUDE_DIR}/xphmg_csr.h
        DESTINATION ${XPHMG_DATADIR}/target/include)

file(GLOB man1 ${CMAKE_SOURCE_DIR}/docs/man/*.1)
file(GLOB man3 ${CMAKE_SOURCE_DIR}/docs/man/*.3)
install(FILES ${man1} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${man3} DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)

# pkg-config: prefix relative to the .pc file, so the tree can be moved
# (lib/pkgconfig -> ../.., lib/x86_64-linux-gnu/pkgconfig -> ../../..)
string(REGEX REPLACE "[^/]+" ".." XPHMG_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
foreach(pc xphmg-isa xphmg-target)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/pkg/${pc}.pc.in ${CMAKE_BINARY_DIR}/pkg/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/pkg/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

set(XPHMG_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/xphmg)
install(EXPORT xphmgTargets NAMESPACE xphmg:: DESTINATION ${XPHMG_CMAKEDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/pkg/xphmgConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/pkg/xphmgConfig.cmake
                              INSTALL_DESTINATION ${XPHMG_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR XPHMG_DATADIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/pkg/xphmgConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/pkg/xphmgConfig.cmake
              ${CMAKE_BINARY_DIR}/pkg/xphmgConfigVersion.cmake
        DESTINATION ${XPHMG_CMAKEDIR})

# CPack: `cpack -G DEB` in the build directory makes xphmg_VERSION_ARCH.deb
set(CPACK_PACKAGE_NAME xphmg)
set(CPACK_PACKAGE_VENDOR "xphmg project")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "XPHMG RISC-V reference platform: simulator, disassembler, ISA library, target kit")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "xphmg project <xphmg@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# the target kit is for the Debian cross toolchain; recommended, not required
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf, pkg-config, cmake")
include(CPack)
