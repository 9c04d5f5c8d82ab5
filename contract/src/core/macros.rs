//! Declaration macros: one declaration of a contract object or enum yields the Rust type (with
//! serde and schemars derives), its wire reader, its `JSON.stringify`-exact writer, and its
//! reflection table for the bindings. This is what keeps the contract a single source of truth.

/// Declares a closed string enum (spec graphmind-v1 §1 "Enums are closed").
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $wire)] $variant ),+
        }

        impl $name {
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

        impl $crate::core::WireValue for $name {
            const EXPECTED: &'static str = concat!("string (", stringify!($name), ")");
            fn read(ctx: &mut $crate::core::Ctx, v: $crate::core::json::Val<'_>, path: &$crate::core::Path<'_>) -> Option<Self> {
                match v.string_raw() {
                    Some(raw) => {
                        let text = $crate::core::json::decode_string(raw).text;
                        let found = Self::from_wire(&text);
                        if found.is_none() {
                            ctx.issue(path, $crate::core::enum_message(Self::VALUES, v.raw()));
                        }
                        found
                    }
                    None => ctx.expected(path, <Self as $crate::core::WireValue>::EXPECTED, Some(v)),
                }
            }
            fn write(&self, out: &mut Vec<u8>) {
                $crate::core::json::write_string(out, self.as_str());
            }
            fn field_ref(&self) -> $crate::core::FieldRef<'_> {
                $crate::core::FieldRef::Enum(self.as_str())
            }
        }
    };
}

/// Declares a loose contract object: known fields in spec order plus `extra` for unknown
/// members. `Option<T>` fields may be absent but never `null`; every other field is required.
macro_rules! wire_object {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $wire:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
        $vis struct $name {
            $(
                $(#[$fmeta])*
                #[serde(rename = $wire, skip_serializing_if = "crate::core::WireField::is_absent")]
                pub $field: $ty,
            )+
            /// Unknown members, in wire order with their raw values (spec: every object is loose).
            #[serde(flatten)]
            pub extra: $crate::core::Extras,
        }

        impl $crate::core::WireValue for $name {
            const EXPECTED: &'static str = concat!("object (", stringify!($name), ")");
            #[allow(non_snake_case)]
            fn read(ctx: &mut $crate::core::Ctx, v: $crate::core::json::Val<'_>, path: &$crate::core::Path<'_>) -> Option<Self> {
                if v.kind() != $crate::core::json::JsonKind::Object {
                    return ctx.expected(path, <Self as $crate::core::WireValue>::EXPECTED, Some(v));
                }
                $( let mut $field: Option<$crate::core::json::Val<'_>> = None; )+
                let mut extra = $crate::core::Extras::new();
                for (key, val) in v.members() {
                    let decoded = $crate::core::json::decode_string(key).text;
                    match &*decoded {
                        $( $wire => $field = Some(val), )+
                        _ => extra.insert_escaped(key, $crate::core::RawJson::from_validated(val.raw())),
                    }
                }
                $(
                    let $field = <$ty as $crate::core::WireField>::read_field(ctx, $field, &$crate::core::Path::Key(path, $wire));
                )+
                Some(Self { $( $field: $field?, )+ extra })
            }
            fn write(&self, out: &mut Vec<u8>) {
                out.push(b'{');
                let mut first = true;
                $( $crate::core::WireField::write_field(&self.$field, $wire, out, &mut first); )+
                self.extra.write_members(out, &mut first);
                out.push(b'}');
            }
            fn field_ref(&self) -> $crate::core::FieldRef<'_> {
                $crate::core::FieldRef::Object(self)
            }
        }

        impl $crate::core::Reflect for $name {
            fn type_name(&self) -> &'static str {
                stringify!($name)
            }
            fn fields(&self) -> &'static [$crate::core::FieldInfo] {
                <Self as $crate::core::Described>::FIELDS
            }
            fn get(&self, wire: &str) -> Option<$crate::core::FieldRef<'_>> {
                match wire {
                    $( $wire => $crate::core::WireField::field_ref_opt(&self.$field), )+
                    _ => None,
                }
            }
            fn extra(&self) -> &$crate::core::Extras {
                &self.extra
            }
            fn write_json(&self, out: &mut Vec<u8>) {
                <Self as $crate::core::WireValue>::write(self, out);
            }
        }

        impl $crate::core::Described for $name {
            const NAME: &'static str = stringify!($name);
            const FIELDS: &'static [$crate::core::FieldInfo] = &[
                $( $crate::core::FieldInfo { wire: $wire, rust: stringify!($field), ty: stringify!($ty) }, )+
            ];
        }
    };
}
