//! Declaration macros: one declaration of a contract object or enum yields the Rust type (with
//! serde and schemars derives), its wire reader, its `JSON.stringify`-exact writer, and its
//! reflection table for the bindings. This is what keeps the contract a single source of truth.

/// `Some(literal)` for an optional macro argument that was given, `None` otherwise.
macro_rules! opt_literal {
    () => {
        None
    };
    ($l:literal) => {
        Some($l)
    };
}

/// Declares a closed string enum (spec graphmind-v1 §1 "Enums are closed").
///
/// An optional `#[constant = "NODE_KINDS"]` after the doc comment names the public constant
/// (a tuple of every wire value) the bindings export for this enum; it lands in
/// [`EnumDesc::constant`](crate::registry::EnumDesc::constant), so no binding names the enum.
/// It also implements [`WireEnum`](crate::wire::WireEnum), through which bindings read the enum
/// from a host string without naming it ([`enum_arg`](crate::wire::enum_arg)).
macro_rules! wire_enum {
    (
        $(#[doc = $doc:expr])*
        $(#[constant = $constant:literal])?
        $vis:vis enum $name:ident {
            $( $(#[doc = $vdoc:literal])* $variant:ident = $wire:literal ),+ $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
        $vis enum $name {
            $( $(#[doc = $vdoc])* #[serde(rename = $wire)] $variant ),+
        }

        impl $name {
            /// The registry entry: name, doc and every value with its doc.
            pub const DESC: $crate::registry::EnumDesc = $crate::registry::EnumDesc {
                name: stringify!($name),
                doc: concat!($($doc, "\n",)* ""),
                values: &[$( $crate::registry::EnumValueDesc { wire: $wire, rust: stringify!($variant), doc: concat!($($vdoc, "\n",)* "") } ),+],
                constant: opt_literal!($($constant)?),
            };
            /// Every value, in spec order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every wire string, in spec order.
            pub const VALUES: &'static [&'static str] = &[$($wire),+];

            /// The wire string of this value.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }

            /// The value for a wire string; `None` for any other string (closed enum).
            pub fn from_wire(s: &str) -> Option<Self> {
                match s { $($wire => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::wire::WireEnum for $name {
            const DESC: $crate::registry::EnumDesc = $name::DESC;
            fn from_wire(s: &str) -> Option<Self> {
                $name::from_wire(s)
            }
            fn as_wire(self) -> &'static str {
                self.as_str()
            }
        }

        impl $crate::wire::WireValue for $name {
            const EXPECTED: &'static str = concat!("string (", stringify!($name), ")");
            const TY: $crate::registry::Ty = $crate::registry::Ty::Enum(&$name::DESC);
            fn read(ctx: &mut $crate::wire::Ctx, v: wirecontract_json::Val<'_>, path: &$crate::wire::Path<'_>) -> Option<Self> {
                match v.string_raw() {
                    Some(raw) => {
                        let text = wirecontract_json::decode_string(raw).text;
                        let found = Self::from_wire(&text);
                        if found.is_none() {
                            ctx.issue_with(path, $crate::wire::IssueCode::InvalidEnum, $crate::wire::enum_message(Self::VALUES, v.raw()));
                        }
                        found
                    }
                    None => ctx.expected(path, <Self as $crate::wire::WireValue>::EXPECTED, Some(v)),
                }
            }
            fn write(&self, out: &mut Vec<u8>) {
                // One fixed-length append per value; the assertion keeps it equal to
                // `write_string` of the wire string.
                match self { $($name::$variant => {
                    const { assert!(wirecontract_json::cursor::is_plain_wire_name($wire), "an enum wire value needs escaping: write it with write_string") };
                    out.extend_from_slice(concat!("\"", $wire, "\"").as_bytes());
                }),+ }
            }
            fn field_ref(&self) -> $crate::wire::FieldRef<'_> {
                $crate::wire::FieldRef::Enum(self.as_str())
            }
            #[inline]
            fn read_fast(cur: &mut wirecontract_json::cursor::Cursor<'_>) -> Option<Self> {
                Self::from_wire(&cur.string()?.decoded_lossy())
            }
        }
    };
}

/// Declares a loose contract object: known fields in spec order plus `extra` for unknown
/// members. `Option<T>` fields may be absent but never `null`; every other field is required.
/// Besides the struct and its wire traits it gives `from_required(..)`, which takes the required
/// fields in spec order and leaves the rest absent: code that builds with
/// `X { opt: Some(..), ..X::from_required(a, b) }` survives an optional field added to `X`.
macro_rules! wire_object {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident { $($body:tt)* }
    ) => {
        wire_object!(@split [$($doc)*] [$vis] $name [] [] ; $($body)* ,);
    };
    // Sorts the fields into every field (tagged `req`/`opt`) and the required ones, keeping the
    // tokens of each type: an `Option<..>` is optional, anything else required. Stray commas
    // (the one appended above, or a trailing one) are skipped.
    (@split $m:tt $v:tt $name:ident [$($all:tt)*] [$($req:tt)*] ; , $($rest:tt)*) => {
        wire_object!(@split $m $v $name [$($all)*] [$($req)*] ; $($rest)*);
    };
    (@split $m:tt $v:tt $name:ident [$($all:tt)*] [$($req:tt)*] ;
        $(#[doc = $fdoc:literal])* $field:ident : Option<$inner:ty> = $wire:literal , $($rest:tt)*) => {
        wire_object!(@split $m $v $name [$($all)* (opt [$($fdoc)*] $field, Option<$inner>, $wire)] [$($req)*] ; $($rest)*);
    };
    (@split $m:tt $v:tt $name:ident [$($all:tt)*] [$($req:tt)*] ;
        $(#[doc = $fdoc:literal])* $field:ident : $ty:ty = $wire:literal , $($rest:tt)*) => {
        wire_object!(@split $m $v $name [$($all)* (req [$($fdoc)*] $field, $ty, $wire)] [$($req)* ($field, $ty)] ; $($rest)*);
    };
    // A field's value in `from_required`: the argument of that name, or absent.
    (@init req $field:ident) => { $field };
    (@init opt $field:ident) => { None };
    (@split [$($doc:literal)*] [$vis:vis] $name:ident
        [$( ($kind:ident [$($fdoc:literal)*] $field:ident, $ty:ty, $wire:literal) )+]
        [$( ($rfield:ident, $rty:ty) )*] ; ) => {
        impl $name {
            /// The required fields in spec order; every optional field absent, no unknown members.
            #[allow(dead_code, reason = "a private declaration (a test's) need not be built this way")]
            pub fn from_required($($rfield: $rty),*) -> Self {
                Self { $( $field: wire_object!(@init $kind $field), )+ extra: $crate::wire::Extras::new() }
            }
        }
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, schemars::JsonSchema)]
        $vis struct $name {
            $(
                $(#[doc = $fdoc])*
                #[serde(rename = $wire, skip_serializing_if = "crate::wire::WireField::is_absent")]
                pub $field: $ty,
            )+
            /// Unknown members, in wire order with their raw values (spec: every object is loose).
            #[serde(flatten)]
            pub extra: $crate::wire::Extras,
        }

        // `Cursor::member_key` reads these names by comparing bytes.
        const _: () = { $( assert!(wirecontract_json::cursor::is_plain_wire_name($wire), concat!("wire name ", stringify!($wire), " holds a quote, a backslash or a control character")); )+ };

        impl $crate::wire::WireValue for $name {
            const EXPECTED: &'static str = concat!("object (", stringify!($name), ")");
            const TY: $crate::registry::Ty = $crate::registry::Ty::Object(&<$name as $crate::wire::Described>::DESC);
            #[allow(non_snake_case)]
            fn read(ctx: &mut $crate::wire::Ctx, v: wirecontract_json::Val<'_>, path: &$crate::wire::Path<'_>) -> Option<Self> {
                if v.kind() != wirecontract_json::JsonKind::Object {
                    return ctx.expected(path, <Self as $crate::wire::WireValue>::EXPECTED, Some(v));
                }
                $( let mut $field: Option<wirecontract_json::Val<'_>> = None; )+
                let mut extra = $crate::wire::Extras::new();
                for (key, val) in v.members() {
                    let decoded = wirecontract_json::decode_string(key).text;
                    match &*decoded {
                        $( $wire => $field = Some(val), )+
                        _ => extra.insert_escaped(key, ctx.raw(val)),
                    }
                }
                $(
                    let $field = <$ty as $crate::wire::WireField>::read_field(ctx, $field, &$crate::wire::Path::Key(path, $wire));
                )+
                Some(Self { $( $field: $field?, )+ extra })
            }
            #[allow(non_snake_case)]
            fn read_fast(cur: &mut wirecontract_json::cursor::Cursor<'_>) -> Option<Self> {
                $( let mut $field: Option<$ty> = None; )+
                let mut extra = $crate::wire::Extras::new();
                if cur.object_start()? {
                    // Members usually arrive in declaration order: each key is first compared
                    // with the field after the last one read.
                    const WIRES: &[wirecontract_json::cursor::WireKey] = &[$(wirecontract_json::cursor::WireKey::new($wire)),+];
                    let mut next = 0;
                    loop {
                        let (key, known) = cur.member_key(WIRES, &mut next)?;
                        // The field at that index of `WIRES` (the expansion's order), without
                        // comparing names again. A repeated key overwrites: the last one
                        // wins, as in JSON.parse.
                        let mut index = 0;
                        let mut read = false;
                        $(
                            if known == Some(index) {
                                $field = Some(<$ty as $crate::wire::WireField>::read_present_fast(cur)?);
                                read = true;
                            }
                            index += 1;
                        )+
                        let _ = index;
                        if !read {
                            extra.insert_escaped(key.raw, cur.raw_json()?);
                        }
                        if !cur.more_members()? {
                            break;
                        }
                    }
                }
                Some(Self {
                    $( $field: match $field { Some(v) => v, None => <$ty as $crate::wire::WireField>::absent_fast()? }, )+
                    extra,
                })
            }
            fn write(&self, out: &mut Vec<u8>) {
                out.push(b'{');
                let mut first = true;
                $( $crate::wire::WireField::write_field(&self.$field, $wire, out, &mut first); )+
                self.extra.write_members_except(out, &mut first, &[$($wire),+]);
                out.push(b'}');
            }
            fn field_ref(&self) -> $crate::wire::FieldRef<'_> {
                $crate::wire::FieldRef::Object(self)
            }
        }

        impl $crate::wire::Reflect for $name {
            fn desc(&self) -> &'static $crate::registry::ObjectDesc {
                &<Self as $crate::wire::Described>::DESC
            }
            fn get(&self, wire: &str) -> Option<$crate::wire::FieldRef<'_>> {
                match wire {
                    $( $wire => $crate::wire::WireField::field_ref_opt(&self.$field), )+
                    _ => None,
                }
            }
            fn visit_fields<'a>(&'a self, f: &mut dyn FnMut(&'static $crate::registry::FieldDesc, $crate::wire::FieldRef<'a>)) {
                // `fields()` lists the fields in declaration order, the order of this expansion.
                let mut descs = $crate::wire::Reflect::fields(self).iter();
                $(
                    let desc = descs.next();
                    if let (Some(desc), Some(r)) = (desc, $crate::wire::WireField::field_ref_opt(&self.$field)) {
                        f(desc, r);
                    }
                )+
            }
            fn extra(&self) -> &$crate::wire::Extras {
                &self.extra
            }
            fn write_json(&self, out: &mut Vec<u8>) {
                <Self as $crate::wire::WireValue>::write(self, out);
            }
        }

        impl $crate::wire::Described for $name {
            const DESC: $crate::registry::ObjectDesc = $crate::registry::ObjectDesc {
                name: stringify!($name),
                doc: concat!($($doc, "\n",)* ""),
                fields: &[$( $crate::registry::FieldDesc {
                    wire: $wire,
                    rust: stringify!($field),
                    doc: concat!($($fdoc, "\n",)* ""),
                    ty: <$ty as $crate::wire::WireField>::TY,
                    required: <$ty as $crate::wire::WireField>::REQUIRED,
                }, )+],
                literals: &[],
                strict: false,
                read_json: $crate::wire::read_boxed::<$name>,
                schema: $crate::wire::schema::subschema::<$name>,
            };
        }
    };
}

/// Declares a strict contract object (spec graphorin-v1 §2 "Strict objects"): every key it
/// does not declare is an issue (`unrecognized_keys`, one per distinct key, at that key's path),
/// and it has no `extra`. Besides typed fields, entries may be string literals,
/// `const "v" = "1",`: required, checked (`invalid_literal`), written in place, never stored,
/// listed in [`ObjectDesc::literals`](crate::registry::ObjectDesc::literals). Entries are written in
/// declaration order; duplicate keys follow `JSON.parse` (the last one wins).
///
/// ```text
/// wire_strict_object! {
///     /// doc
///     pub struct PongFrame {
///         const "v" = "1",
///         const "kind" = "pong",
///         /// doc
///         nonce: Option<NonEmptyString> = "nonce",
///     }
/// }
/// ```
macro_rules! wire_strict_object {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident { $($body:tt)* }
    ) => {
        wire_strict_object!(@parse [$($doc)*] [$vis] $name [] [] [] ; $($body)* ,);
    };
    // Stray commas (the one appended above, or a trailing one).
    (@parse $m:tt $v:tt $name:ident [$($f:tt)*] [$($l:tt)*] [$($o:tt)*] ; , $($rest:tt)*) => {
        wire_strict_object!(@parse $m $v $name [$($f)*] [$($l)*] [$($o)*] ; $($rest)*);
    };
    (@parse $m:tt $v:tt $name:ident [$($f:tt)*] [$($l:tt)*] [$($o:tt)*] ; const $wire:literal = $value:literal , $($rest:tt)*) => {
        wire_strict_object!(@parse $m $v $name [$($f)*] [$($l)* ($wire, $value)] [$($o)* (lit $wire $value)] ; $($rest)*);
    };
    (@parse $m:tt $v:tt $name:ident [$($f:tt)*] [$($l:tt)*] [$($o:tt)*] ; $(#[doc = $fdoc:literal])* $field:ident : $ty:ty = $wire:literal , $($rest:tt)*) => {
        wire_strict_object!(@parse $m $v $name [$($f)* ([$($fdoc)*] $field, $ty, $wire)] [$($l)*] [$($o)* (field $field $ty, $wire)] ; $($rest)*);
    };
    (@parse [$($doc:literal)*] [$vis:vis] $name:ident
        [$( ([$($fdoc:literal)*] $field:ident, $ty:ty, $wire:literal) )*]
        [$( ($lwire:literal, $lvalue:literal) )*]
        [$($o:tt)*] ; ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, schemars::JsonSchema)]
        #[schemars(deny_unknown_fields)]
        $vis struct $name {
            $(
                $(#[doc = $fdoc])*
                #[serde(rename = $wire, skip_serializing_if = "crate::wire::WireField::is_absent")]
                pub $field: $ty,
            )*
        }

        impl $crate::wire::WireValue for $name {
            const EXPECTED: &'static str = concat!("object (", stringify!($name), ")");
            const TY: $crate::registry::Ty = $crate::registry::Ty::Object(&<$name as $crate::wire::Described>::DESC);
            #[allow(non_snake_case, unused_mut, unused_variables)]
            fn read(ctx: &mut $crate::wire::Ctx, v: wirecontract_json::Val<'_>, path: &$crate::wire::Path<'_>) -> Option<Self> {
                if v.kind() != wirecontract_json::JsonKind::Object {
                    return ctx.expected(path, <Self as $crate::wire::WireValue>::EXPECTED, Some(v));
                }
                $( let mut $field: Option<wirecontract_json::Val<'_>> = None; )*
                let mut literals: Vec<(&'static str, wirecontract_json::Val<'_>)> = Vec::new();
                let mut unknown: Vec<String> = Vec::new();
                for (key, val) in v.members() {
                    let decoded = wirecontract_json::decode_string(key).text;
                    match &*decoded {
                        $( $wire => $field = Some(val), )*
                        $( $lwire => literals.push(($lwire, val)), )*
                        other => {
                            if !unknown.iter().any(|k| k == other) {
                                unknown.push(other.to_owned());
                            }
                        }
                    }
                }
                let mut ok = true;
                $( wire_strict_object!(@read ctx, path, literals, ok, $o); )*
                for key in &unknown {
                    ctx.issue_with(
                        &$crate::wire::Path::Key(path, key),
                        $crate::wire::IssueCode::UnrecognizedKeys,
                        format!("unrecognized key {} (the object is strict)", $crate::wire::quote_key(key)),
                    );
                }
                if !ok || !unknown.is_empty() {
                    return None;
                }
                Some(Self { $( $field: $field?, )* })
            }
            fn write(&self, out: &mut Vec<u8>) {
                out.push(b'{');
                let mut first = true;
                $( wire_strict_object!(@write self, out, first, $o); )*
                out.push(b'}');
            }
            fn field_ref(&self) -> $crate::wire::FieldRef<'_> {
                $crate::wire::FieldRef::Object(self)
            }
        }

        impl $crate::wire::Reflect for $name {
            fn desc(&self) -> &'static $crate::registry::ObjectDesc {
                &<Self as $crate::wire::Described>::DESC
            }
            fn get(&self, wire: &str) -> Option<$crate::wire::FieldRef<'_>> {
                match wire {
                    $( $wire => $crate::wire::WireField::field_ref_opt(&self.$field), )*
                    _ => None,
                }
            }
            fn extra(&self) -> &$crate::wire::Extras {
                &$crate::wire::NO_EXTRAS
            }
            fn write_json(&self, out: &mut Vec<u8>) {
                <Self as $crate::wire::WireValue>::write(self, out);
            }
        }

        impl $crate::wire::Described for $name {
            const DESC: $crate::registry::ObjectDesc = $crate::registry::ObjectDesc {
                name: stringify!($name),
                doc: concat!($($doc, "\n",)* ""),
                fields: &[$( $crate::registry::FieldDesc {
                    wire: $wire,
                    rust: stringify!($field),
                    doc: concat!($($fdoc, "\n",)* ""),
                    ty: <$ty as $crate::wire::WireField>::TY,
                    required: <$ty as $crate::wire::WireField>::REQUIRED,
                }, )*],
                literals: &[ $( ($lwire, $lvalue), )* ],
                strict: true,
                read_json: $crate::wire::read_boxed::<$name>,
                schema: $crate::wire::schema::subschema::<$name>,
            };
        }
    };
    (@read $ctx:ident, $path:ident, $literals:ident, $ok:ident, (lit $wire:literal $value:literal)) => {
        $ok &= $crate::wire::read_literal($ctx, &$literals, $wire, $value, $path);
    };
    (@read $ctx:ident, $path:ident, $literals:ident, $ok:ident, (field $field:ident $ty:ty, $wire:literal)) => {
        let $field = <$ty as $crate::wire::WireField>::read_field($ctx, $field, &$crate::wire::Path::Key($path, $wire));
    };
    (@write $self:ident, $out:ident, $first:ident, (lit $wire:literal $value:literal)) => {
        $crate::wire::write_key($out, $wire, &mut $first);
        wirecontract_json::write_string($out, $value);
    };
    (@write $self:ident, $out:ident, $first:ident, (field $field:ident $ty:ty, $wire:literal)) => {
        $crate::wire::WireField::write_field(&$self.$field, $wire, $out, &mut $first);
    };
}
