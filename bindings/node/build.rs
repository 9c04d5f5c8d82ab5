//! Emits the linker arguments a Node-API addon needs (undefined `napi_*` symbols resolved by
//! the host `node` process at load time).

fn main() {
    napi_build::setup();
}
